/**
 * International domain names (issue 65, item 4), against the emulator over real HTTP. RimuHosting documents
 * `domain_name` as a fully qualified domain name (docs/rimuhosting-api.md, "Domain names"): DNS writes an
 * international name in its punycode form, so that is the form an account holds one in. Such a VPS is ordered (the
 * emulator takes the name, as the Vps's check does) and `import-file` offers it, named after its letters. A name in
 * another form (Unicode letters: an account can only get one by a way the API does not document; here the
 * emulator's state file, as a snapshot would) is left out of the document, saying why and the form DNS writes it in,
 * since no program could say it and every preview of the stack would fail on it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { Fqdn } from "../../contract/index";
import { DEMO_API_KEY } from "../../emulator/index";
import { runImportFile } from "../../provider/adopt/cli";
import { identifierOf } from "../../provider/adopt/resource-names";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

let emulator: TestEmulator | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "international-names-"));
const stateFile = path.join(dir, "emulator-state.json");
afterAll(async () => {
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Orders `domainName` by hand, as the control panel would; its order number. */
async function order(domainName: string): Promise<number> {
  const answer = await emulator!.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
    "POST",
    "/orders/new-vps",
    {
      new_order_request: {
        instantiation_options: { domain_name: domainName, distro: "deb12.64" },
        dc_location: "DCDALLAS",
      },
    },
  );
  expect({ domainName, status: answer.status }).toEqual({ domainName, status: 200 });
  return answer.body.post_new_vps_response.about_order.order_oid;
}

test("names keep their letters, in any script", () => {
  expect(identifierOf("сервер.example.ru")).toBe("серверExampleRu");
  expect(identifierOf("café.example.com")).toBe("cafeExampleCom");
  expect(identifierOf("xn--caf-dma.example.com")).toBe("xnCafDmaExampleCom");
});

test("a punycode name is ordered and offered; a name in Unicode letters is left out, saying why", async () => {
  // The check's rule (the Vps's domainName, and the emulator's): the punycode form passes, the Unicode one not.
  expect(Fqdn.safeParse("xn--caf-dma.example.com").success).toBe(true);
  expect(Fqdn.safeParse("café.example.com").success).toBe(false);
  emulator = await startTestEmulator({ timeScale: 0, stateFile });
  const cafe = await order("xn--caf-dma.example.com");
  const plain = await order("plain.example.com");
  const cyrillic = await order("placeholder.example.ru");
  await emulator.close();
  // The account then holds a name in Unicode letters, as a snapshot can put there.
  fs.writeFileSync(
    stateFile,
    fs.readFileSync(stateFile, "utf8").replaceAll("placeholder.example.ru", "сервер.example.ru"),
  );
  emulator = await startTestEmulator({ timeScale: 0, stateFile });

  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const env = { RIMUHOSTING_APIKEY: DEMO_API_KEY, RIMUHOSTING_BASEURL: emulator.baseUrl };
  const code = await runImportFile([], { stdout, stderr, env, cwd: dir }, "import-file");
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual({
    resources: [
      { type: "rimuhosting:index:Vps", name: "plainExampleCom", id: String(plain) },
      { type: "rimuhosting:index:Vps", name: "xnCafDmaExampleCom", id: String(cafe) },
    ],
  });
  expect(err).toContain(
    "import-file: left out 1 VPS whose domain name is not a fully qualified domain name as RimuHosting's API " +
      "documents it (letters, digits and hyphens; an international name in its punycode form, such as " +
      `xn--caf-dma.example.com for café.example.com): сервер.example.ru (order ${cyrillic}, as DNS writes it: ` +
      "xn--b1afb6bcb.example.ru). A program could not name it",
  );
  expect(err).toContain("import-file: 2 VPSs to adopt.");
});
