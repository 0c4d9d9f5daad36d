// The Node.js a test run is on is the one the real CLI runs programs and providers on: the CLI's Node.js language
// host and the dynamic-provider plugin both start the first `node` on PATH, and .ci/run puts Node 22, then Node 24,
// first there (scripts/node.sh). Without this, the Node 24 part of CI could run its programs on another Node and
// still pass. The program and its provider report `process.version`; jest runs on the same `node` as npm and the CLI.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { installedProgram } from "./installed-program";

jest.setTimeout(180_000);

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
// A dynamic provider whose create reports the Node.js of the provider host that runs it.
const reporter = { async create() { return { id: "node", outs: { version: process.version } }; } };
class NodeVersion extends pulumi.dynamic.Resource {
  constructor(name) { super(reporter, name, { version: undefined }); }
}
exports.program = process.version;
exports.provider = new NodeVersion("provider-host").version;
`;

describeCliOnly("the node first on PATH", () => {
  let tmp: string;
  let stack: CliStack;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "node-on-path-"));
    const source = path.join(tmp, "source");
    fs.mkdirSync(source);
    fs.writeFileSync(path.join(source, "Pulumi.yaml"), "name: node-on-path\nruntime: nodejs\n");
    fs.writeFileSync(
      path.join(source, "package.json"),
      JSON.stringify({ name: "node-on-path", main: "index.js" }),
    );
    fs.writeFileSync(path.join(source, "index.js"), PROGRAM);
    const programDir = installedProgram(source, path.join(tmp, "program"));
    stack = await CliStack.create({ programDir, backendDir: path.join(tmp, "backend") });
  });
  afterAll(() => {
    stack?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("runs the program and the dynamic provider on the Node.js this test runs on", async () => {
    const { outputs } = await stack.up();
    expect(outputs).toEqual({ program: process.version, provider: process.version });
  });
});
