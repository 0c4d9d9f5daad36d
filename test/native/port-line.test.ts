// The plugin writes its port line without building process.stdout's stream (provider/native/main.ts; the first use
// of process.stdout built a pipe socket, about 2.7 ms of the engine's first answer). The built plugin runs in a
// process of its own (`npm run build` first), so this file is in NEEDS_PROCESSES, apart from fast-start.test.ts.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILT_PLUGIN, firstStdoutLine } from "./plugin-client";

describe("printing the port", () => {
  it("writes the port line without building process.stdout's stream", async () => {
    // A preload that says on stderr when anything first asks for process.stdout (which builds its stream).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fast-start-"));
    const hook = path.join(dir, "watch-stdout.js");
    fs.writeFileSync(
      hook,
      `const own = Object.getOwnPropertyDescriptor(process, "stdout");
Object.defineProperty(process, "stdout", { configurable: true, enumerable: own.enumerable, get() {
  require("node:fs").writeSync(2, "process.stdout was asked for\\n");
  return own.get.call(process);
} });
`,
    );
    const child = spawn(process.execPath, ["--require", hook, BUILT_PLUGIN, "127.0.0.1:1"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    try {
      const firstLine = await firstStdoutLine(child, () => `: ${stderr}`);
      expect(firstLine).toMatch(/^\d+$/);
    } finally {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(stderr).not.toContain("process.stdout was asked for");
  });
});
