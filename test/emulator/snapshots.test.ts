/**
 * Named snapshots (/__emulator/snapshots) and --load-snapshot: a state saved after creating orders, loaded into a
 * fresh emulator (from a file at start-up, or uploaded and loaded at runtime), lists the same orders and goes on
 * with the same id sequence; named snapshots outlive a restart on the same state file; a snapshot of another state
 * version, or with a key the state does not have, is refused, saying so; a state file of version 1 still loads.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { GetOrdersResponse } from "../../contract/index.js";
import { STATE_VERSION } from "../../emulator/state/schema.js";
import { controlApi } from "../helpers/control-api.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { useTempDir } from "../helpers/use-emulator.js";
import { createVps, errorOf, record } from "./fixtures.js";

const tmp = useTempDir();
const started: TestEmulator[] = [];
async function emulator(options: Parameters<typeof startTestEmulator>[0] = {}): Promise<TestEmulator> {
  const emu = await startTestEmulator({ control: true, ...options });
  started.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((emu) => emu.close()));
});

/** Every account's orders as R1 lists them (active and inactive). */
async function listings(emu: TestEmulator): Promise<unknown[]> {
  const res = await emu.api("GET", "/orders;include_inactive=Y");
  return record<GetOrdersResponse>(res.body).about_orders ?? [];
}

/** An emulator with five orders (one of them deleted, one resized), and its snapshot saved as "five". */
async function fiveOrders(): Promise<{ emu: TestEmulator; saved: Record<string, unknown> }> {
  const emu = await emulator({ seed: 11 });
  const orders = [];
  for (let i = 1; i <= 5; i++)
    orders.push((await createVps(emu, {}, { domain: `web${i}.example.com` })).about_order);
  await emu.api("DELETE", `/orders/order-${orders[1]!.order_oid}-x/vps`);
  await emu.api("PUT", `/orders/order-${orders[2]!.order_oid}-x/vps/parameters`, { memory_mb: 2048 });
  const control = controlApi(emu.baseUrl);
  expect(await control("POST", "/snapshots/five")).toMatchObject({
    status: 200,
    body: { name: "five", orders: 5 },
  });
  const saved = await control("GET", "/snapshots/five");
  expect(saved.status).toBe(200);
  return { emu, saved: saved.body };
}

describe("named snapshots", () => {
  test("saved after five orders, a file loaded with loadSnapshot at start gives the same listing and ids after", async () => {
    const { emu, saved } = await fiveOrders();
    expect(saved.version).toBe(STATE_VERSION);
    const file = path.join(tmp(), "five.json");
    writeFileSync(file, JSON.stringify(saved));

    const fresh = await emulator({ seed: 99, loadSnapshot: file });
    expect(await listings(fresh)).toHaveLength(5);
    expect(await listings(fresh)).toEqual(await listings(emu));
    // The id and random sequences are the snapshot's: the next order is the same in both.
    const next = (e: TestEmulator) => createVps(e, {}, { domain: "next.example.com" });
    const [a, b] = [(await next(emu)).about_order, (await next(fresh)).about_order];
    expect(b.order_oid).toBe(a.order_oid);
    expect(b.allocated_ips).toEqual(a.allocated_ips);
  });

  test("with a state file as well, the emulator starts from the snapshot and writes it to the state file", async () => {
    const { saved } = await fiveOrders();
    const file = path.join(tmp(), "start.json");
    writeFileSync(file, JSON.stringify(saved));
    const stateFile = path.join(tmp(), "state.json");
    writeFileSync(stateFile, JSON.stringify({ ...saved, orders: [] }));
    const fresh = await emulator({ loadSnapshot: file, stateFile });
    await fresh.close();
    expect(JSON.parse(readFileSync(stateFile, "utf8")).orders).toHaveLength(5);
  });

  test("uploaded to a fresh emulator and loaded at runtime, the same listing; the list names it", async () => {
    const { emu, saved } = await fiveOrders();
    const fresh = await emulator();
    const control = controlApi(fresh.baseUrl);
    await createVps(fresh, {}, { domain: "replaced.example.com" });
    expect((await control("PUT", "/snapshots/baseline", saved)).status).toBe(200);
    expect(await control("POST", "/snapshots/baseline/load")).toEqual({
      status: 200,
      body: { loaded: "baseline", orders: 5 },
    });
    expect(await listings(fresh)).toEqual(await listings(emu));
    const list = await control<{ snapshots: { name: string; orders: number }[] }>("GET", "/snapshots");
    expect(list.body.snapshots.map(({ name, orders }) => [name, orders])).toEqual([["baseline", 5]]);
  });

  test("loading a snapshot again undoes what a test changed since", async () => {
    const emu = await emulator();
    const control = controlApi(emu.baseUrl);
    await createVps(emu, {}, { domain: "keep.example.com" });
    await control("POST", "/snapshots/start");
    await createVps(emu, {}, { domain: "gone.example.com" });
    await control("POST", "/snapshots/start/load");
    expect(emu.snapshot().map((o) => o.domainName)).toEqual(["keep.example.com"]);
  });

  test("another state version is refused, naming both versions: over HTTP (400) and at start-up", async () => {
    const { saved } = await fiveOrders();
    const newer = { ...saved, version: STATE_VERSION + 1 };
    const fresh = await emulator();
    const res = await controlApi(fresh.baseUrl)("PUT", "/snapshots/newer", newer);
    expect(errorOf(res)).toMatchObject({ status: 400, code: "EMU_ERR_VALIDATION" });
    expect(JSON.stringify(res.body)).toContain(
      `is state version ${STATE_VERSION + 1}, written by a newer emulator; this emulator reads versions 1 to ${STATE_VERSION}`,
    );
    const file = path.join(tmp(), "newer.json");
    writeFileSync(file, JSON.stringify(newer));
    await expect(emulator({ loadSnapshot: file })).rejects.toThrow(
      `The snapshot file ${file} is state version ${STATE_VERSION + 1}, written by a newer emulator`,
    );
    await expect(emulator({ loadSnapshot: path.join(tmp(), "missing.json") })).rejects.toThrow(
      /The snapshot file .*missing\.json cannot be read \(ENOENT\)/,
    );
  });

  test("an unknown name is a 404 naming the saved ones; a bad name a 400", async () => {
    const emu = await emulator();
    const control = controlApi(emu.baseUrl);
    await control("POST", "/snapshots/one");
    const missing = await control("POST", "/snapshots/two/load");
    expect(errorOf(missing)).toMatchObject({ status: 404 });
    expect(JSON.stringify(missing.body)).toContain("There is no snapshot named 'two'. Saved: one.");
    expect(errorOf(await control("POST", "/snapshots/.hidden"))).toMatchObject({
      status: 400,
      fieldName: "name",
    });
  });

  test("named snapshots are kept in the state file: after a restart they are listed and load", async () => {
    const stateFile = path.join(tmp(), "kept.json");
    const first = await emulator({ stateFile });
    await createVps(first, {}, { domain: "baseline.example.com" });
    expect((await controlApi(first.baseUrl)("POST", "/snapshots/baseline")).status).toBe(200);
    await createVps(first, {}, { domain: "later.example.com" });
    await first.close();

    const second = await emulator({ stateFile });
    const control = controlApi(second.baseUrl);
    const list = await control<{ snapshots: { name: string; orders: number }[] }>("GET", "/snapshots");
    expect(list.body.snapshots.map(({ name, orders }) => [name, orders])).toEqual([["baseline", 1]]);
    expect(await control("POST", "/snapshots/baseline/load")).toEqual({
      status: 200,
      body: { loaded: "baseline", orders: 1 },
    });
    expect(second.snapshot().map((o) => o.domainName)).toEqual(["baseline.example.com"]);
    // The snapshot holds the accounts only: the state file's shelf is not copied into it.
    expect(Object.keys((await control("GET", "/snapshots/baseline")).body)).not.toContain("snapshots");
  });

  test("a key the state does not have is refused by name: a 400 over HTTP, one line at start-up", async () => {
    const { saved } = await fiveOrders();
    const [order, ...others] = saved.orders as Record<string, unknown>[];
    const fresh = await emulator();
    const control = controlApi(fresh.baseUrl);
    const nested = await control("PUT", "/snapshots/typo", {
      ...saved,
      orders: [{ ...order, colour: "blue" }, ...others],
    });
    expect(errorOf(nested)).toMatchObject({ status: 400, fieldName: "orders.0.colour" });
    expect(JSON.stringify(nested.body)).toContain("has the key 'orders.0.colour', which state version");
    const top = await control("PUT", "/snapshots/typo", { ...saved, nextOrderId: 5 });
    expect(errorOf(top)).toMatchObject({ status: 400, fieldName: "nextOrderId" });
    expect((await control("GET", "/snapshots")).body).toEqual({ snapshots: [] });

    const file = path.join(tmp(), "typo.json");
    writeFileSync(file, JSON.stringify({ ...saved, nextOrderId: 5 }));
    await expect(emulator({ loadSnapshot: file })).rejects.toThrow(
      `The snapshot file ${file} has the key 'nextOrderId', which state version ${STATE_VERSION} does not have.`,
    );
  });

  test("a state file of version 1 (before snapshots were kept) loads, and is written back at this version", async () => {
    const { emu, saved } = await fiveOrders();
    const stateFile = path.join(tmp(), "v1.json");
    writeFileSync(stateFile, JSON.stringify({ ...saved, version: 1 }));
    const old = await emulator({ stateFile });
    expect(await listings(old)).toEqual(await listings(emu));
    expect((await controlApi(old.baseUrl)("GET", "/snapshots")).body).toEqual({ snapshots: [] });
    await old.close();
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toMatchObject({
      version: STATE_VERSION,
      snapshots: [],
    });
  });
});
