/**
 * README's first command, `npm ci && npm run demo`, in a fresh clone, through the real pulumi CLI (issue 82): the
 * demo runs from what the build wrote into the clone's dist/, never from the sources jest maps, so a file the built
 * demo needs and the build does not emit fails here (it did: test/helpers/lazy-typescript.js, in every command's
 * NODE_OPTIONS). The clone's `npm ci` is the checkout's node_modules hard-linked (support/fresh-clone.ts says why)
 * and the script npm ci runs after installing, `npm run prepare`, which builds; `npm run demo` must then not build a
 * second time, and must print what README's line says it does.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeCliOnly } from "../engine/describe-cli";
import { REPO_ROOT } from "../engine/native-programs";
import { freshClone } from "./support/fresh-clone";

jest.setTimeout(600_000);

const README_COMMAND = "npm ci && npm run demo";

/** README's line for the demo: the command, then `#` and what it does. */
function readmeDemoLine(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const line = readme.split("\n").find((l) => l.startsWith(README_COMMAND));
  if (!line) throw new Error(`README.md has no line starting with \`${README_COMMAND}\``);
  return line;
}

/** Each thing README's line says the demo does, and the line of the demo's output that shows it, in order. */
const PROMISES: { said: RegExp; printed: RegExp }[] = [
  {
    said: /starts the emulator/,
    printed: /^RimuHosting emulator listening at http:\/\/127\.0\.0\.1:\d+\/r/m,
  },
  { said: /quickstart through preview/, printed: /^=== pulumi preview =+$/m },
  { said: /, up,/, printed: /^=== pulumi up =+$/m },
  { said: /a change, up/, printed: /^=== pulumi config set memoryMb 2048 && pulumi up =+$/m },
  { said: /and destroy/, printed: /^=== pulumi destroy =+$/m },
  // the demo's own check after destroy: the emulator bills nothing the demo ordered
  { said: /destroy/, printed: /^\d+ order\(s\) placed, 0 still running or billed\.$/m },
];

describeCliOnly("README's `npm ci && npm run demo` in a fresh clone", () => {
  let parent: string;
  let clone: string;
  beforeAll(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "demo-clone-"));
    clone = freshClone(parent, "pulumi-rimuhosting", true);
  });
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  const npm = (script: string) => {
    const result = spawnSync("npm", ["run", script], {
      cwd: clone,
      encoding: "utf8",
      env: { ...process.env, npm_config_update_notifier: "false" },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it("npm ci's prepare builds dist/ once; npm run demo does not build it again, and prints README's steps", () => {
    expect(fs.existsSync(path.join(clone, "dist"))).toBe(false); // git holds no dist/: a fresh clone
    const prepared = npm("prepare");
    expect(prepared.output).toContain("tsc -p tsconfig.build.json");
    expect(prepared.status).toBe(0);

    const demo = npm("demo");
    if (demo.status !== 0) throw new Error(`npm run demo exited ${demo.status}:\n${demo.output}`);
    expect(demo.output).toContain(
      "dist/ is current (built after its sources last changed): not building again",
    );
    expect(demo.output).not.toContain("tsc -p tsconfig.build.json");

    const line = readmeDemoLine();
    let from = 0;
    for (const { said, printed } of PROMISES) {
      expect(line).toMatch(said);
      const at = demo.output.slice(from).search(printed);
      if (at < 0)
        throw new Error(`npm run demo's output has no line ${printed} after offset ${from}:\n${demo.output}`);
      from += at;
    }
    expect(demo.output).toMatch(/^Demo finished in [\d.]+ s\.$/m);
  });
});
