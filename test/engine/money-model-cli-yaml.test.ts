// The money model's 20 generated cases through the real CLI on the native plugin (a YAML program, written again
// before each run), each run checked against I1–I4. The harness and what it checks: test/cost/money-model-cli.ts;
// money-model-cli-dynamic.test.ts runs the same cases on the dynamic Vps.
import { describeNative } from "./native-programs";
import { modelCases } from "../cost/money-model-cli";
import { YAML } from "../cost/money-model-cli-front-ends";

jest.setTimeout(900_000);

describeNative("yaml", "the money model's generated cases on the native plugin (a YAML program)", () => {
  modelCases(YAML);
});
