// The engine harness on a test-only program (fixtures/notes) whose dynamic resource keeps notes as files, so every
// step can be checked against what the provider really did, independently of the RimuHosting provider.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DeploymentError, HarnessStack, type OperationResult } from "./harness-stack";
import { silentPrinter } from "./ops-printer";
import { isSecret, UNKNOWN } from "./property-values";

const FIXTURE = path.join(__dirname, "fixtures", "notes");
const NOTE = "pulumi-nodejs:dynamic/notes:Note";

const opsOf = (r: OperationResult): Record<string, string> =>
  Object.fromEntries(
    r.steps.filter((s) => s.type === NOTE && s.op !== "delete-replaced").map((s) => [s.name, s.op]),
  );

describe("HarnessStack on the notes fixture", () => {
  let dir: string;
  let stack: HarnessStack;
  const notes = (): string[] => fs.readdirSync(dir).filter((f) => f.startsWith("note-"));
  const note = (id: string): Record<string, unknown> =>
    JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), "utf8"));
  const stateText = (): string => fs.readFileSync(path.join(dir, "state.json"), "utf8");
  const idOf = (name: string): string =>
    stack.state().resources.find((r) => r.urn.endsWith(`::${name}`))?.id ?? "(not in state)";

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-notes-"));
    stack = new HarnessStack({
      programDir: FIXTURE,
      stateFile: path.join(dir, "state.json"),
      env: { HARNESS_FIXTURE_STORE: dir },
      config: { secondText: { value: "second-secret-text", secret: true } },
      printer: silentPrinter,
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("preview: plans creates with unknown outputs and changes nothing", async () => {
    const r = await stack.preview();
    expect(opsOf(r)).toEqual({ first: "create", second: "create" });
    expect(r.summary.create).toBe(3); // the stack too
    expect(r.outputs.firstId).toBe(UNKNOWN);
    expect(notes()).toEqual([]);
    expect(fs.existsSync(path.join(dir, "state.json"))).toBe(false);
  });

  test("up: creates, marks secret outputs secret, and never writes a secret in plaintext", async () => {
    const r = await stack.up();
    expect(opsOf(r)).toEqual({ first: "create", second: "create" });
    expect(notes()).toHaveLength(2);
    expect(r.outputs.firstId).toBe(idOf("first"));
    expect(isSecret(r.outputs.firstToken)).toBe(true); // additionalSecretOutputs
    expect(isSecret(r.outputs.secondText)).toBe(true); // secret input => secret output
    const text = stateText();
    expect(text).not.toContain("second-secret-text");
    expect(text).not.toContain(`tok-${idOf("first")}`);
    expect(stack.state().resources.find((s) => s.urn.endsWith("::second"))?.inputs.text).toEqual(
      expect.objectContaining({ value: "second-secret-text" }),
    );
  });

  test("up with no changes: every resource is the same and the notes are untouched", async () => {
    const before = notes().map((n) => fs.statSync(path.join(dir, n)).mtimeMs);
    const r = await stack.up();
    expect(opsOf(r)).toEqual({ first: "same", second: "same" });
    expect(notes().map((n) => fs.statSync(path.join(dir, n)).mtimeMs)).toEqual(before);
  });

  test("update in place: only the changed resource is updated, keeping its id", async () => {
    const id = idOf("first");
    stack.setConfig("firstText", { value: "hello again" });
    const r = await stack.up();
    expect(opsOf(r)).toEqual({ first: "update", second: "same" });
    expect(r.steps.find((s) => s.name === "first")?.keys).toEqual(["text"]);
    expect(idOf("first")).toBe(id);
    expect(note(id).text).toBe("hello again");
  });

  test("replace, create before delete: the old note goes after the new one exists", async () => {
    const oldId = idOf("first");
    stack.setConfig("firstKind", { value: "fancy" });
    const preview = await stack.preview();
    expect(opsOf(preview)).toEqual({ first: "replace", second: "update" });
    expect(fs.existsSync(path.join(dir, `${oldId}.json`))).toBe(true);
    const r = await stack.up();
    const step = r.steps.find((s) => s.name === "first");
    expect(step).toMatchObject({ op: "replace", keys: ["kind"], deleteBeforeReplace: false });
    expect(opsOf(r).second).toBe("update"); // its `after` input was the old id
    expect(idOf("first")).not.toBe(oldId);
    expect(fs.existsSync(path.join(dir, `${oldId}.json`))).toBe(false);
    expect(note(idOf("second")).after).toBe(idOf("first"));
  });

  test("replace, delete before replace when the provider asks for it", async () => {
    const oldId = idOf("first");
    stack.setConfig("firstKind", { value: "exclusive" });
    const r = await stack.up();
    expect(r.steps.find((s) => s.name === "first")).toMatchObject({
      op: "replace",
      deleteBeforeReplace: true,
    });
    expect(fs.existsSync(path.join(dir, `${oldId}.json`))).toBe(false);
    expect(notes()).toHaveLength(2);
  });

  test("refresh: picks up drift, and the next up reverts it", async () => {
    const firstId = idOf("first");
    fs.writeFileSync(
      path.join(dir, `${firstId}.json`),
      JSON.stringify({ ...note(firstId), text: "edited by hand" }),
    );
    const r = await stack.refresh();
    // drift as the engine sees it: the provider's Diff from the refreshed note back to the declared inputs finds a
    // change (a dynamic provider names no keys)
    expect(r.steps.find((s) => s.name === "first")).toMatchObject({ op: "refresh" });
    expect(opsOf(r).second).toBe("same");
    const refreshed = stack.state().resources.find((s) => s.urn.endsWith("::first"));
    expect(refreshed?.outputs.text).toBe("edited by hand");
    // the next up puts the declared text back
    expect(opsOf(await stack.up()).first).toBe("update");
    expect(note(firstId).text).toBe("hello again");
  });

  test("partial failure: initErrors are recorded and force an update next time", async () => {
    stack.setConfig("withExtra", { value: "true" });
    stack.setConfig("extraText", { value: "fail-init" });
    const failed = await stack.up().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(DeploymentError);
    const result = (failed as DeploymentError).result;
    expect(result.steps.find((s) => s.name === "extra")?.failed).toContain("did not finish initializing");
    const extra = stack.state().resources.find((s) => s.urn.endsWith("::extra"));
    expect(extra?.initErrors).toEqual(["note is not ready"]);
    expect(extra && note(extra.id).ready).toBe(false);
    // nothing changed in the program, yet the engine updates the resource to let it finish initializing
    const r = await stack.up();
    expect(opsOf(r)).toEqual({ first: "same", second: "same", extra: "update" });
    expect(note(idOf("extra")).ready).toBe(true);
    expect(stack.state().resources.find((s) => s.urn.endsWith("::extra"))?.initErrors).toEqual([]);
  });

  test("destroy: deletes dependents first and leaves nothing behind", async () => {
    const r = await stack.destroy();
    const order = r.steps.map((s) => s.name);
    expect(order.indexOf("extra")).toBeLessThan(order.indexOf("second"));
    expect(order.indexOf("second")).toBeLessThan(order.indexOf("first"));
    expect(order[order.length - 1]).toBe("notes-dev");
    expect(notes()).toEqual([]);
    expect(stack.state().resources).toEqual([]);
  });
});
