// The money model's 20 generated cases through the real CLI on the dynamic Vps (a TypeScript program,
// fixtures/money-model), each run checked against I1–I4. The harness and what it checks: test/cost/money-model-cli.ts;
// money-model-cli-yaml.test.ts runs the same cases on the native plugin.
import { describeCliOnly } from "./describe-cli";
import { modelCases } from "../cost/money-model-cli";
import { DYNAMIC } from "../cost/money-model-cli-front-ends";

jest.setTimeout(900_000);

describeCliOnly("the money model's generated cases on the dynamic Vps (a TypeScript program)", () => {
  modelCases(DYNAMIC);
});
