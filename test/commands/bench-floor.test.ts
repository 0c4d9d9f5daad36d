/**
 * The cli bench's floor (bench/floor-program.ts, `npm run bench -- cli --floor`): the fleet example's program with
 * only its import swapped, and a provider that does nothing but what the engine needs to see the same operations
 * (a no-op preview without changes, an update of the changed VPSs). Runs the built module (`npm run build` first):
 * it copies the built stack trimming into the program.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const REPO = path.resolve(__dirname, "../..");
const { floorProgram } = require(path.join(REPO, "dist/bench/floor-program.js")) as {
  floorProgram: (programDir: string, recordedOutputs: Record<string, unknown>) => void;
};

interface FloorProvider {
  check(olds: object, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown> }>;
  diff(id: string, olds: object, news: object): Promise<{ changes: boolean; replaces: string[] }>;
  create(inputs: object): Promise<{ id: string; outs: Record<string, unknown> }>;
  update(id: string, olds: object, news: object): Promise<{ outs: Record<string, unknown> }>;
}

let dir: string;
const recorded = {
  orderOid: 1000,
  primaryIp: "192.0.2.1",
  memoryMb: 1024,
  password: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:x" },
  __provider: 'exports.handler = () => require("pulumi-rimuhosting/shim");\n',
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-floor-"));
  fs.copyFileSync(path.join(REPO, "examples/fleet/index.ts"), path.join(dir, "index.ts"));
  floorProgram(dir, recorded);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const provider = () => require(path.join(dir, "node_modules/rimu-floor/provider.js")) as FloorProvider;

test("the program is the fleet example's with only the import swapped", () => {
  const fleet = fs.readFileSync(path.join(REPO, "examples/fleet/index.ts"), "utf8");
  const floor = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
  expect(floor).toBe(fleet.replace('from "pulumi-rimuhosting";', 'from "rimu-floor";'));
});

test("check hands back the inputs without the class's preview flag and provider text", async () => {
  const news = { domainName: "node0.fleet.example.com", memoryMb: 1024, __preview: "urn:x", __provider: "p" };
  expect((await provider().check({}, news)).inputs).toEqual({
    domainName: "node0.fleet.example.com",
    memoryMb: 1024,
  });
});

test("diff sees no change in a no-op preview and a change of memoryMb, never a replacement", async () => {
  const olds = { ...recorded, domainName: "node0.fleet.example.com", memoryMb: 1024 };
  const same = { domainName: "node0.fleet.example.com", memoryMb: 1024, __provider: "another text" };
  expect(await provider().diff("1000", olds, same)).toMatchObject({ changes: false, replaces: [] });
  expect(await provider().diff("1000", olds, { ...same, memoryMb: 2048 })).toMatchObject({
    changes: true,
    replaces: [],
  });
});

test("create and update return the recorded outputs with the inputs over them, secrets plain", async () => {
  const { outs } = await provider().create({ domainName: "node1.fleet.example.com", memoryMb: 2048 });
  expect(outs).toMatchObject({ orderOid: 1000, primaryIp: "192.0.2.1", memoryMb: 2048 });
  expect(typeof outs.password).toBe("string");
  expect(outs).not.toHaveProperty("__provider");
  const updated = await provider().update("1000", outs, {
    domainName: "node1.fleet.example.com",
    memoryMb: 4096,
  });
  expect(updated.outs).toMatchObject({ orderOid: 1000, memoryMb: 4096 });
});
