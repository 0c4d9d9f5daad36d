/**
 * The loader behind the native plugin's lazily loaded modules (provider/native/lazy-module.ts): a module is
 * loaded once; one that fails to load fails the first call and every later one with the same clean error.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lazyModule } from "../../provider/native/lazy-module";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-module-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A CommonJS module file that counts its evaluations in `globalThis[counter]`, then runs `body`. */
function moduleFile(name: string, counter: string, body: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(
    file,
    `globalThis[${JSON.stringify(counter)}] = (globalThis[${JSON.stringify(counter)}] ?? 0) + 1;\n${body}\n`,
  );
  return file;
}
const evaluations = (counter: string): number => (globalThis as Record<string, unknown>)[counter] as number;

describe("lazyModule", () => {
  it("loads the module with the first call, once, and hands out the same exports after", () => {
    const file = moduleFile("good.js", "goodEvaluations", "exports.answer = 42;");
    const load = lazyModule("test code", () => require(file) as { answer: number });
    expect(evaluations("goodEvaluations")).toBeUndefined();
    const first = load();
    expect(first.answer).toBe(42);
    expect(load()).toBe(first);
    expect(evaluations("goodEvaluations")).toBe(1);
  });

  it("a module that throws while it loads: a clean error naming what failed, the same on every later call", () => {
    // Half of its exports are set before it throws, as in a bundle whose wrapper keeps them.
    const file = moduleFile(
      "broken.js",
      "brokenEvaluations",
      `exports.early = 1;\nthrow new Error("cannot find module 'zod'");`,
    );
    const load = lazyModule("Vps code", () => require(file) as { early: number });
    const clean = "pulumi-resource-rimuhosting could not load its Vps code: cannot find module 'zod'";
    expect(() => load()).toThrow(clean);
    expect(() => load()).toThrow(clean);
    expect(() => load()).toThrow(clean);
    // Tried once: neither evaluated again (Node would, having forgotten the module) nor half-loaded exports.
    expect(evaluations("brokenEvaluations")).toBe(1);
  });
});
