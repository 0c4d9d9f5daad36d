/**
 * The quickstart's documented unit test (examples/quickstart/index.test.ts), run by the repository's
 * jest against the sources. test/package/packed.test.ts runs the same file in a fresh project.
 */
require("../../examples/quickstart/index.test");
