import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createStateStore } from "./state-store";
import { isSecret, wrapSecret } from "./property-values";

describe("state store", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-store-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const resource = (outputs: Record<string, unknown>) => ({
    urn: "urn:pulumi:dev::p::t::r",
    type: "t",
    custom: true,
    id: "1",
    parent: "",
    inputs: {},
    outputs,
    dependencies: [],
    initErrors: [],
    additionalSecretOutputs: [],
  });

  test("writes secrets encrypted and reads them back as secrets", () => {
    const file = path.join(dir, "state.json");
    const store = createStateStore(file, { project: "p", stack: "dev" });
    const state = store.load();
    state.resources.push(
      resource({ password: wrapSecret("hunter2-root-pw"), nested: { k: [wrapSecret(42)] } }),
    );
    store.save(state);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain("hunter2-root-pw");
    expect(text).toContain("ciphertext");
    const back = createStateStore(file, { project: "p", stack: "dev" }).load().resources[0]?.outputs;
    expect(isSecret(back?.password)).toBe(true);
    expect(back).toEqual({ password: wrapSecret("hunter2-root-pw"), nested: { k: [wrapSecret(42)] } });
  });

  test("a wrong passphrase cannot read the secrets", () => {
    const file = path.join(dir, "state.json");
    const store = createStateStore(file, { project: "p", stack: "dev" }, "right");
    const state = store.load();
    state.resources.push(resource({ password: wrapSecret("x") }));
    store.save(state);
    expect(() => createStateStore(file, { project: "p", stack: "dev" }, "wrong").load()).toThrow();
  });

  test("leaves no temporary file behind", () => {
    const store = createStateStore(path.join(dir, "state.json"), { project: "p", stack: "dev" });
    store.save(store.load());
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });
});
