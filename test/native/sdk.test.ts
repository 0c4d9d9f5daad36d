/**
 * The SDKs in sdk/ are exactly what Pulumi's generators make of provider/native/schema.json now (which
 * schema.test.ts holds to its sources): `npm run sdk`'s generation step, read from package.json and run again into a
 * temporary directory, then every file compared. A hand edit, a file missing or left over, or a schema change
 * without `npm run sdk` fails here. Starts scripts/gen-sdk.sh (Go; it builds the generator into its cache the
 * first time), so test/helpers/needs-processes.js lists this file among those that start processes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/native/schema/package-schema";

const ROOT = path.resolve(__dirname, "../..");
const SDK = "sdk";

/** `npm run sdk`'s call of scripts/gen-sdk.sh, as its arguments (the output directory among them). */
function generationStep(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const step = scripts.sdk!.split("&&").find((part) => part.trim().startsWith("scripts/gen-sdk.sh"));
  if (!step) throw new Error(`package.json's sdk script runs no scripts/gen-sdk.sh: ${scripts.sdk}`);
  const [, ...args] = step.trim().split(/\s+/);
  if (!args.includes(SDK))
    throw new Error(`package.json's sdk script writes elsewhere than ${SDK}/: ${step}`);
  return args;
}

/** Every file under `dir`, relative to it, sorted. */
function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile())
    .sort();
}

describe("the SDKs in sdk/", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "rimu-sdk-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("are what `npm run sdk` generates from the schema now, file for file", () => {
    const args = generationStep();
    const languages = args.slice(args.indexOf(SDK) + 1);
    expect(languages.length).toBeGreaterThan(0);
    execFileSync(
      path.join(ROOT, "scripts/gen-sdk.sh"),
      args.map((arg) => (arg === SDK ? scratch : arg)),
      { cwd: ROOT, stdio: "pipe" },
    );
    for (const language of languages) {
      const fresh = path.join(scratch, language);
      const checkedIn = path.join(ROOT, SDK, language);
      expect({ language, files: files(checkedIn) }).toEqual({ language, files: files(fresh) });
      const differing = files(fresh).filter(
        (file) =>
          !fs.readFileSync(path.join(fresh, file)).equals(fs.readFileSync(path.join(checkedIn, file))),
      );
      expect({ language, differing }).toEqual({ language, differing: [] });
    }
  }, 600_000);

  it("say where the plugin downloads from, need Python 3.10, and carry the Vps's example and Import section", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const plugin = { resource: true, name: "rimuhosting", version, server: PLUGIN_DOWNLOAD_URL };
    for (const file of [
      "go/rimuhosting/pulumi-plugin.json",
      "python/pulumi_rimuhosting/pulumi-plugin.json",
      "java/src/main/resources/com/pulumi/rimuhosting/plugin.json",
    ])
      expect([file, JSON.parse(fs.readFileSync(path.join(ROOT, SDK, file), "utf8"))]).toEqual([file, plugin]);
    const npm = JSON.parse(fs.readFileSync(path.join(ROOT, SDK, "nodejs/package.json"), "utf8")) as {
      pulumi: object;
    };
    expect(npm.pulumi).toEqual(plugin);
    expect(
      fs.readFileSync(
        path.join(ROOT, SDK, "java/src/main/resources/com/pulumi/rimuhosting/version.txt"),
        "utf8",
      ),
    ).toBe(version);
    expect(fs.readFileSync(path.join(ROOT, SDK, "java/pom.xml"), "utf8")).toContain(
      `<version>${version}</version>`,
    );
    expect(fs.readFileSync(path.join(ROOT, SDK, "python/pyproject.toml"), "utf8")).toMatch(
      /^\s*requires-python = ">=3\.10"$/m,
    );
    // Each SDK keeps its own language's example in the Vps's doc comment (IDE help), and the Import section.
    for (const [file, fence] of [
      ["nodejs/vps.ts", "```typescript"],
      ["python/pulumi_rimuhosting/vps.py", "```python"],
      ["go/rimuhosting/vps.go", "```go"],
      // pulumi-java writes the example as Javadoc: <pre>{@code …}</pre>.
      ["java/src/main/java/com/pulumi/rimuhosting/Vps.java", "{@code"],
    ] as const) {
      const source = fs.readFileSync(path.join(ROOT, SDK, file), "utf8");
      const found = [
        fence,
        "import * as rimuhosting",
        "import pulumi_rimuhosting",
        "rimuhosting.NewVps",
        'new Vps("web"',
        "## Import",
      ].filter((text) => source.includes(text));
      expect([file, found]).toEqual([file, expect.arrayContaining([fence, "## Import"])]);
      expect([file, found.length]).toEqual([file, 3]);
    }
  });

  it("carry the generated-file header in every source file (Go's package doc comment aside)", () => {
    const sources = ["go", "nodejs", "python", "java"].flatMap((language) =>
      files(path.join(ROOT, SDK, language))
        .filter((file) => /\.(go|py|pyi|ts|java)$/.test(file) && !file.endsWith("doc.go"))
        .map((file) => path.join(ROOT, SDK, language, file)),
    );
    expect(sources.length).toBeGreaterThan(40);
    const headerless = sources.filter(
      (file) =>
        !fs
          .readFileSync(file, "utf8")
          .split("\n", 4)
          .join("\n")
          .includes("generated by pulumi-gen-rimuhosting"),
    );
    expect(headerless).toEqual([]);
  });
});
