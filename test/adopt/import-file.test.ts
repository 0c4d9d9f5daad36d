/**
 * `import-file` (provider/adopt/): the account's VPSs as a `pulumi import --file` document, read from the emulator
 * over real HTTP. All of them, or those of a data centre or a domain-name pattern; names valid as identifiers in
 * every language the import writes, and unique; orders a Pulumi stack created (they carry the provider's creation
 * nonce) left out with a message saying why and how to include them, while an order a script placed with the
 * package's client (a creation token, no nonce) is adopted; and the failures (a wrong data centre, no API key, nothing to adopt) as one clear line
 * and an exit code. The settings come from the environment here (no Pulumi project in the directory);
 * test/engine/adopt.test.ts reads them from a stack's config.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { DEMO_API_KEY } from "../../emulator/index";
import { CREATION_NONCE_KEY, CREATION_TOKEN_KEY, createClient } from "../../provider/client/index";
import { runImportFile } from "../../provider/adopt/cli";
import { identifierOf, uniqueNames } from "../../provider/adopt/resource-names";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

let emulator: TestEmulator;
let dir: string;
/** What the command says outside a project (as here), before its last line. */
const NO_STATES =
  "import-file: note: there is no Pulumi project (Pulumi.yaml) here, so no stack's state was read. A VPS a stack " +
  "adopted (adoptOrderOid) or imported carries no mark on its order, so only the VPSs a stack created were left " +
  "out. Run this in the directory of a Pulumi project whose backend (`pulumi login`) holds your stacks to leave " +
  "out the VPSs they manage.\n";
const oids: Record<string, number> = {};

/** An order placed by hand; with `token`, as the provider's create places it (its token and a nonce). */
async function order(domainName: string, dc: string, token?: string): Promise<void> {
  const meta =
    token === undefined
      ? []
      : [
          { key_name: CREATION_TOKEN_KEY, value: token },
          { key_name: CREATION_NONCE_KEY, value: "0123456789abcdef0123456789abcdef" },
        ];
  const answer = await emulator.api<{
    post_new_vps_response: { about_order: { order_oid: number } };
  }>("POST", "/orders/new-vps", {
    new_order_request: {
      instantiation_options: { domain_name: domainName, distro: "deb12.64" },
      dc_location: dc,
      meta_data: meta,
    },
  });
  expect(answer.status).toBe(200);
  oids[`${domainName} ${token ?? ""}`] = answer.body.post_new_vps_response.about_order.order_oid;
}

beforeAll(async () => {
  emulator = await startTestEmulator();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-file-"));
  await order("web-1.example.com", "DCDALLAS");
  await order("web-2.example.com", "DCLONDON");
  await order("WEB-2.example.com", "DCLONDON"); // the same name in another case
  await order("db.example.com", "DCDALLAS");
  await order("ci.example.com", "DCDALLAS", "vps-0123456789abcdef0123456789abcdef"); // a stack's
  // A script's order, through the package's client: it carries the client's creation token, and is no stack's.
  const client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  const scripted = await client.createVps({
    instantiation_options: { domain_name: "script.example.com", distro: "deb12.64" },
    dc_location: "DCDALLAS",
  });
  client.close();
  expect(scripted.about_order.meta_data?.map((m) => m.key_name)).toEqual([CREATION_TOKEN_KEY]);
  oids["script.example.com "] = scripted.about_order.order_oid;
});
afterAll(async () => {
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()));
  const settings = { RIMUHOSTING_APIKEY: DEMO_API_KEY, RIMUHOSTING_BASEURL: emulator.baseUrl, ...env };
  const code = await runImportFile(args, { stdout, stderr, env: settings, cwd: dir }, "import-file");
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const resources = (stdout: string) =>
  (JSON.parse(stdout) as { resources: { type: string; name: string; id: string }[] }).resources;

describe("names", () => {
  test("domain names become lower camel case identifiers, never a keyword or a leading digit", () => {
    expect(identifierOf("web-1.example.com")).toBe("web1ExampleCom");
    expect(identifierOf("legacy.example.com")).toBe("legacyExampleCom");
    expect(identifierOf("1st.example.com")).toBe("vps1stExampleCom");
    expect(identifierOf("import")).toBe("importVps");
    expect(identifierOf("rimuhosting")).toBe("rimuhostingVps");
    expect(identifierOf("Ünïcode_host")).toBe("unicodeHost");
    expect(identifierOf("---")).toBe("vps");
  });

  test("a name an older VPS has already, in any case, is spelled out to say which domain is which", () => {
    // Issue 57: these were aB, aB2, aB3, aB4, which said nothing of which VPS each was. Oldest first: the oldest
    // keeps its name, so that a VPS ordered later never renames one listed before it (issue 83).
    expect(uniqueNames(["a.b", "A.B", "a-b", "a_b", "c.d"])).toEqual([
      "aB",
      "capsADotCapsB",
      "aDashB",
      "aUnderscoreB",
      "cD",
    ]);
    expect(uniqueNames(["shop-example.com", "shop.example.com"])).toEqual([
      "shopExampleCom",
      "shopDotExampleDotCom",
    ]);
    expect(uniqueNames(["1.x", "1-x", "import", "IMPORT"])).toEqual([
      "vps1X",
      "vps1DashX",
      "importVps",
      "capsImport",
    ]);
    // A spelled name another domain already has: a number after it, still unique in any case.
    expect(uniqueNames(["adotb", "a.b", "a-b"])).toEqual(["adotb", "aB", "aDashB"]);
    expect(uniqueNames(["a.b", "adotb.x", "A.B", "a-dot-b.x"])).toEqual([
      "aB",
      "adotbX",
      "capsADotCapsB",
      "aDashDotDashBDotX",
    ]);
  });

  test("a name the stack's resources have is never given (in any case); an older VPS's never changes", () => {
    // Adoption in batches (issue 83): the first batch's names are the stack's; the grown account's new VPSs get
    // others, and each VPS the same name in every run.
    const first = uniqueNames(["web.example.com", "db.example.com"]);
    expect(first).toEqual(["webExampleCom", "dbExampleCom"]);
    // Both now in the stack, under their names; two VPSs ordered since, one named as an older one is.
    const grown = ["web.example.com", "db.example.com", "web-example.com", "db.example.com"];
    expect(uniqueNames(grown)).toEqual([...first, "webDashExampleDotCom", "dbDotExampleDotCom"]);
    expect(uniqueNames(grown, new Set(first), first)).toEqual(uniqueNames(grown));
    // The stack's other resources' names (a hand-written one, in another case), are never given.
    expect(uniqueNames(grown, new Set(["WEBDASHEXAMPLEDOTCOM", ...first]), first)).toEqual([
      ...first,
      "webDashExampleDotCom2",
      "dbDotExampleDotCom",
    ]);
    expect(uniqueNames(["new.example.com"], new Set(["NEWEXAMPLECOM"]))).toEqual(["newDotExampleDotCom"]);
    expect(uniqueNames(["new.example.com"], new Set(["newExampleCom", "newDotExampleDotCom"]))).toEqual([
      "newDotExampleDotCom2",
    ]);
  });
});

describe("import-file against the emulator", () => {
  test("writes every VPS but the stack's, named after its domain name, and says why one is left out", async () => {
    const { code, stdout, stderr } = await run([]);
    expect(code).toBe(0);
    expect(resources(stdout)).toEqual([
      { type: "rimuhosting:index:Vps", name: "dbExampleCom", id: String(oids["db.example.com "]) },
      { type: "rimuhosting:index:Vps", name: "scriptExampleCom", id: String(oids["script.example.com "]) },
      { type: "rimuhosting:index:Vps", name: "web1ExampleCom", id: String(oids["web-1.example.com "]) },
      { type: "rimuhosting:index:Vps", name: "web2ExampleCom", id: String(oids["web-2.example.com "]) },
      {
        type: "rimuhosting:index:Vps",
        name: "capsWebDash2DotExampleDotCom",
        id: String(oids["WEB-2.example.com "]),
      },
    ]);
    expect(stderr).toContain(
      `import-file: left out 1 VPS that a Pulumi stack manages: ci.example.com (order ${oids["ci.example.com vps-0123456789abcdef0123456789abcdef"]}: a stack created it).`,
    );
    expect(stderr).toContain("run again with --include-managed to adopt them.");
    // No project here: the command says it read no stack's state, and what that leaves unchecked.
    expect(stderr).toContain(
      "import-file: note: there is no Pulumi project (Pulumi.yaml) here, so no stack's state was read. A VPS a " +
        "stack adopted (adoptOrderOid) or imported carries no mark on its order",
    );
    expect(stderr).toContain("import-file: 5 VPSs to adopt. Next: pulumi import --file <file>");
  });

  test("--include-managed adds the stack's VPS, with a warning", async () => {
    const { code, stdout, stderr } = await run(["--include-managed"]);
    expect(code).toBe(0);
    expect(resources(stdout).map((r) => r.name)).toContain("ciExampleCom");
    expect(stderr).toMatch(
      /included, as --include-managed asks, 1 VPS that a Pulumi stack manages: ci\.example\.com \(order \d+: a stack created it\)/,
    );
  });

  test("--dc and --name select, and --out writes the file", async () => {
    const out = path.join(dir, "london.json");
    const { code, stdout, stderr } = await run(["--dc", "dclondon", "--name=web-2*", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(resources(fs.readFileSync(out, "utf8")).map((r) => r.name)).toEqual([
      "web2ExampleCom",
      "capsWebDash2DotExampleDotCom",
    ]);
    expect(stderr).toBe(
      NO_STATES +
        `import-file: 2 VPSs to adopt, written to ${out}. Next: pulumi import --file ${out} (it writes the program that declares them).\n`,
    );
    const dallas = await run(["--dc", "DCDALLAS", "--name", "db.*", "--name", "WEB-1.EXAMPLE.COM"]);
    expect(resources(dallas.stdout).map((r) => r.name)).toEqual(["dbExampleCom", "web1ExampleCom"]);
  });

  test("nothing selected: exit 1, nothing written", async () => {
    const { code, stdout, stderr } = await run(["--dc", "DCSYDNEY"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      NO_STATES +
        "import-file: no VPS to adopt: the account has none that the filters select. Nothing was written.\n",
    );
  });

  test("a data centre that does not exist, an unknown flag, no API key: exit 2, one clear message", async () => {
    const dc = await run(["--dc", "DCMARS"]);
    expect(dc.code).toBe(2);
    expect(dc.stderr).toMatch(
      /^import-file: --dc DCMARS is no RimuHosting data centre; use one of DCDALLAS, /,
    );
    const flag = await run(["--all"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(
      /^import-file: unknown option '--all'; `import-file --help` lists its options\.\n\nUsage: import-file /,
    );
    const noKey = await run([], { RIMUHOSTING_APIKEY: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs a RimuHosting API key, and none is configured\. Set it with/);
  });

  test("a key the service refuses: exit 2, the service's answer, never the key", async () => {
    const key = "12345678901234567890123456789099";
    const { code, stderr } = await run([], { RIMUHOSTING_APIKEY: key });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^import-file: \[RIMU_ERR_AUTH\] Listing the account's VPSs at http:\/\/127\.0\.0\.1:\d+\/r \(RIMUHOSTING_BASEURL\): /,
    );
    expect(stderr).not.toContain(key);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
