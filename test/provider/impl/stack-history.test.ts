/**
 * The reading of a stack's earlier states in a file backend (provider/impl/ownership/stack-history.ts), which tells
 * a VPS that left the stack on purpose from a killed run's order. The files are laid out as the `pulumi` CLI's file
 * backend lays them out (every finished operation's copy in history/ and backups/, with or without the project
 * level, plain or gzip); a real backend written by the CLI is test/engine/killed-runs.test.ts's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { holderOf } from "../../../provider/impl/ownership/backend-states";
import {
  fileBackendDir,
  readStackCopies,
  stackOfScope,
} from "../../../provider/impl/ownership/stack-history";
import type { AboutOrder } from "../../../contract/index";

const SCOPE = { project: "shop", stack: "prod" };

/** A checkpoint file as the CLI writes it, holding one VPS with order `oid`. */
const checkpoint = (oid: number) =>
  JSON.stringify({
    version: 3,
    checkpoint: {
      stack: "organization/shop/prod",
      latest: { resources: [{ type: "rimuhosting:index:Vps", id: String(oid), outputs: { orderOid: oid } }] },
    },
  });

const order = (oid: number) => ({ order_oid: oid, domain_name: `vps${oid}.example.com` }) as AboutOrder;

let dir = "";
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "stack-history-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(relative: string, content: string | Buffer): void {
  const file = path.join(dir, ".pulumi", relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

describe("a stack's earlier states in a file backend", () => {
  it("holds what any finished operation recorded: history, gzip backups, the stack file's .bak; never a neighbour's", () => {
    write("history/shop/prod/prod-1700000000000000000.checkpoint.json", checkpoint(101));
    write("history/shop/prod/prod-1700000000000000000.history.json", "not a checkpoint");
    write("backups/shop/prod/prod.1700000000000000001.json.gz", zlib.gzipSync(checkpoint(102)));
    write("stacks/shop/prod.json.bak", checkpoint(103));
    write("stacks/shop/prod.json", checkpoint(104));
    write("stacks/shop/production.json", checkpoint(105));
    write("history/shop/staging/staging-1700000000000000000.checkpoint.json", checkpoint(106));
    const copies = readStackCopies(dir, SCOPE);
    expect(copies.unread).toBeUndefined();
    const held = [101, 102, 103, 104, 105, 106].filter((oid) => holderOf(copies, order(oid)) !== undefined);
    expect(held).toEqual([101, 102, 103, 104]);
  });

  it("reads the layout without projects too", () => {
    write("history/prod/prod-1700000000000000000.checkpoint.json", checkpoint(201));
    const copies = readStackCopies(dir, SCOPE);
    expect(copies.unread).toBeUndefined();
    expect(holderOf(copies, order(201))).toBeDefined();
    expect(holderOf(copies, order(202))).toBeUndefined();
  });

  it("no finished operation recorded, or a copy unreadable: unread, with why", () => {
    write("stacks/shop/prod.json", checkpoint(301));
    expect(readStackCopies(dir, SCOPE).unread).toContain(
      "no finished operation of stack prod is recorded in",
    );
    write("backups/shop/prod/prod.1.json.gz", "not gzip");
    expect(readStackCopies(dir, SCOPE).unread).toMatch(/prod\.1\.json\.gz could not be read/);
  });

  it("finds a file backend's directory as the CLI does; any other backend has none", () => {
    expect(fileBackendDir("file:///srv/state", "/work")).toBe("/srv/state");
    expect(fileBackendDir("file://~", "/work")).toBe(os.homedir());
    expect(fileBackendDir("file://~/state", "/work")).toBe(path.join(os.homedir(), "state"));
    expect(fileBackendDir("file://state?no_tmp_dir=true", "/work")).toBe("/work/state");
    expect(fileBackendDir("https://api.pulumi.com", "/work")).toBeUndefined();
    expect(fileBackendDir("s3://bucket", "/work")).toBeUndefined();
  });

  it("names the stack of a creationScope, or none", () => {
    expect(stackOfScope("shop/prod/web-0")).toEqual(SCOPE);
    expect(stackOfScope("shop/prod")).toBeUndefined();
    expect(stackOfScope(undefined)).toBeUndefined();
  });
});
