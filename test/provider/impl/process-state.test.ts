/**
 * One run's state lives in one object (provider/impl/engine/run-context.ts); what a provider process keeps beyond a run
 * is listed, with its reason, in provider/impl/engine/process-state.ts. This reads every module of provider/ and
 * contract/ and fails on module-level state that is in neither place: a `let` or `var` at the top of a module, or
 * a Map or Set made there that the module changes (add, set, delete, clear). A constant table (a Set filled once
 * and only read) is not state. And the look-ahead's checks return what they found instead of writing it onto their
 * per-check LookaheadCheck, where the planned fee once read it from a side channel (the order of the checks changed the fee).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import * as ts from "typescript";
import { PROCESS_STATE } from "../../../provider/impl/engine/process-state";
import { beginRun, currentRun, RunContext, runState } from "../../../provider/impl/engine/run-context";
import { log } from "../../../provider/impl/engine/log";
import { configure, configuredBaseUrl } from "../../../provider/impl/lifecycle/runtime-config";
import { settingName } from "../../../provider/impl/engine/settings-source";
import { runImportFile } from "../../../provider/adopt/cli";

const ROOT = resolve(__dirname, "../../..");
const SOURCES = ["provider", "contract"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet"]);

/** The module-level state of one source file: `file name` for each variable. */
export function moduleState(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const mutableBinding = (list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
    for (const declaration of list.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const name = declaration.name.text;
      const init = declaration.initializer;
      const collection =
        init !== undefined &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        COLLECTIONS.has(init.expression.text);
      const changed = new RegExp(`\\b${name}\\.(add|set|delete|clear)\\(`).test(text);
      if (mutableBinding || (collection && changed)) found.push(`${file} ${name}`);
    }
  }
  return found;
}

describe("module-level state in the provider", () => {
  const files = SOURCES.flatMap((dir) => sources(join(ROOT, dir)));
  const found = files.flatMap((path) =>
    moduleState(relative(ROOT, path).split("\\").join("/"), readFileSync(path, "utf8")),
  );
  const listed = PROCESS_STATE.map((state) => `${state.file} ${state.name}`);

  it("is the run context or listed with its reason in process-state.ts", () => {
    expect(found.filter((state) => !listed.includes(state))).toEqual([]);
  });

  it("lists nothing that no longer exists", () => {
    expect(listed.filter((state) => !found.includes(state))).toEqual([]);
  });

  it("gives each listed piece a reason", () => {
    for (const state of PROCESS_STATE) expect(state.why.length).toBeGreaterThan(20);
  });

  it("finds a run's map kept outside the run context", () => {
    const text = "const marks = new Set<string>();\nexport const mark = (k: string) => marks.add(k);\n";
    expect(moduleState("provider/impl/x.ts", text)).toEqual(["provider/impl/x.ts marks"]);
    expect(moduleState("provider/impl/x.ts", "let seen = 0;\n")).toEqual(["provider/impl/x.ts seen"]);
    expect(moduleState("provider/impl/x.ts", "const TABLE = new Set([1, 2]);\n")).toEqual([]);
  });
});

const LOOKAHEAD_RUN = "./lookahead-run.js";
const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** The identifier a property chain (`run.fee.adopted`, `run["out"]`) starts from. */
function rootOf(node: ts.Expression): ts.Identifier | undefined {
  let at: ts.Expression = node;
  while (
    ts.isPropertyAccessExpression(at) ||
    ts.isElementAccessExpression(at) ||
    ts.isParenthesizedExpression(at)
  )
    at = at.expression;
  return ts.isIdentifier(at) && at !== node ? at : undefined;
}

/**
 * Where a module of the look-ahead writes onto its per-check LookaheadCheck (provider/impl/lookahead/lookahead-run.ts) instead of
 * returning what it found: an assignment, `delete`, `++` or `--` through a variable or parameter typed with LookaheadCheck
 * (`run.fee.adopted = …`, the side channel the planned fee once read). `file line: text` for each.
 */
export function writesOntoRun(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const importsRun =
    file.endsWith("lookahead-run.ts") ||
    source.statements.some(
      (s) =>
        ts.isImportDeclaration(s) &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        s.moduleSpecifier.text === LOOKAHEAD_RUN &&
        /\bLookaheadCheck\b/.test(s.importClause?.getText(source) ?? ""),
    );
  if (!importsRun) return [];
  const typedRun = new Set<string>();
  const found: string[] = [];
  const visitDeclarations = (node: ts.Node): void => {
    if ((ts.isParameter(node) || ts.isVariableDeclaration(node)) && ts.isIdentifier(node.name) && node.type)
      if (/\bLookaheadCheck\b/.test(node.type.getText(source))) typedRun.add(node.name.text);
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(source);
  const flag = (node: ts.Node, target: ts.Expression) => {
    const root = rootOf(target);
    if (root && typedRun.has(root.text)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line}: ${node.getText(source)}`);
    }
  };
  const visitWrites = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) flag(node, node.left);
    else if (ts.isDeleteExpression(node)) flag(node, node.expression);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    )
      flag(node, node.operand);
    ts.forEachChild(node, visitWrites);
  };
  visitWrites(source);
  return found;
}

/** The members of `name`'s interface in `file`: each name, and whether it is readonly. */
function membersOf(file: string, name: string): { name: string; readonly: boolean }[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const declared = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!declared) throw new Error(`${file} declares no interface ${name}`);
  return declared.members.filter(ts.isPropertySignature).map((member) => ({
    name: member.name.getText(source),
    readonly: member.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword) ?? false,
  }));
}

describe("the look-ahead's checks return what they found (issue 40, item 5)", () => {
  const files = SOURCES.flatMap((dir) => sources(join(ROOT, dir)));

  it("no check writes onto its LookaheadCheck: the planned fee gets each answer handed over, not through a side channel", () => {
    const writes = files.flatMap((path) =>
      writesOntoRun(relative(ROOT, path).split("\\").join("/"), readFileSync(path, "utf8")),
    );
    expect(writes).toEqual([]);
  });

  it("the LookaheadCheck is read-only and carries no fee", () => {
    const members = [
      ...membersOf("provider/impl/lookahead/lookahead-run.ts", "LookaheadCheck"),
      ...membersOf("provider/impl/budget/planned-fee.ts", "FeeCheck"),
    ];
    expect(members.map((m) => m.name)).not.toContain("fee");
    expect(members.filter((m) => !m.readonly).map((m) => m.name)).toEqual([]);
  });

  it("finds the side channel", () => {
    const text =
      'import { type LookaheadCheck } from "./lookahead-run.js";\n' +
      "function checkNew(run: LookaheadCheck, answer: number) {\n  run.fee.orderAnswer = answer;\n  run.orders ??= [];\n" +
      "  delete run.out.fee;\n  run.out.notes.push(answer);\n}\n";
    expect(writesOntoRun("provider/impl/x.ts", text)).toEqual([
      "provider/impl/x.ts:3: run.fee.orderAnswer = answer",
      "provider/impl/x.ts:4: run.orders ??= []",
      "provider/impl/x.ts:5: delete run.out.fee",
    ]);
    expect(writesOntoRun("provider/impl/y.ts", text.replace("./lookahead-run.js", "./other.js"))).toEqual([]);
  });
});

/**
 * The files that reach the run through currentRun(): the engine's calls (check in vps-check.ts; diff, create, read,
 * update and delete in vps-provider.ts, which both front ends call; configure in index.ts and the native plugin's
 * provider-config.ts; the native plugin's Invoke in functions.ts) and the test seams. Everything below them
 * receives the run as an argument, as the order guard does, so what a check or the budget keeps is the run's it
 * was handed, never whichever run the process serves by the time an await returns.
 */
const RUN_ENTRY_POINTS = [
  "provider/impl/engine/run-context.ts",
  "provider/impl/vps-check.ts",
  "provider/impl/vps-provider.ts",
  "provider/impl/testing.ts",
  "provider/native/functions.ts",
  "provider/native/provider-config.ts",
  "provider/impl/index.ts",
];

/** The files of `sources` that call currentRun(). */
export function reachingCurrentRun(sources: readonly { file: string; text: string }[]): string[] {
  return sources.filter(({ text }) => /\bcurrentRun\s*\(/.test(text)).map(({ file }) => file);
}

describe("the run context", () => {
  it("is reached through currentRun() only at the entry points, and handed down from there", () => {
    const files = sources(join(ROOT, "provider")).map((path) => ({
      file: relative(ROOT, path).split("\\").join("/"),
      text: readFileSync(path, "utf8"),
    }));
    expect(reachingCurrentRun(files).filter((file) => !RUN_ENTRY_POINTS.includes(file))).toEqual([]);
  });

  it("holds what each run was given: two runs of one process, each with its own settings and lines", async () => {
    const served = currentRun();
    const lines = { a: [] as string[], b: [] as string[] };
    const a = new RunContext("run a", { log: (line) => lines.a.push(line) });
    const b = new RunContext("run b", { log: (line) => lines.b.push(line) });
    const settings = (baseUrl: string, budget: string) => ({
      config: {
        get: (key: string) =>
          ({ "rimuhosting:baseUrl": baseUrl, "rimuhosting:monthlyBudgetUsd": budget })[key],
      },
    });
    await configure(a, settings("http://127.0.0.1:1/a", "10"));
    await configure(b, settings("http://127.0.0.1:1/b", "20"));
    log(a, "a's line");
    log(b, "b's line");
    expect([configuredBaseUrl(a), configuredBaseUrl(b)]).toEqual([
      "http://127.0.0.1:1/a",
      "http://127.0.0.1:1/b",
    ]);
    expect([
      a.settings.budget.settings.monthlyBudgetUsd,
      b.settings.budget.settings.monthlyBudgetUsd,
    ]).toEqual([10, 20]);
    expect(lines).toEqual({ a: ["[rimuhosting] a's line"], b: ["[rimuhosting] b's line"] });
    // Neither is the run the process serves, and that run is left as it was.
    expect(currentRun()).toBe(served);
    expect(currentRun().settings).not.toBe(a.settings);
  });

  it("makes each piece once per run, and a new run forgets them all", () => {
    const marks = runState("marks", () => new Set<string>());
    const run = beginRun();
    run.get(marks).add("web");
    expect(currentRun().get(marks).has("web")).toBe(true);
    expect(run.holds()).toEqual(["marks"]);
    beginRun();
    expect(currentRun().get(marks).has("web")).toBe(false);
  });
});

/**
 * What sets state a provider process keeps beyond a run: the test seams (testing.ts) and the process's own
 * configuration (whose settings messages name, the native plugin's engine). A command shipped beside the provider
 * (rimuhosting-killed-orders, rimuhosting-import-file, rimuhosting-bill) runs the provider's code in its own run
 * (RunContext: its readers, where its lines go), so it calls none of them: the state is the same before, during and
 * after it, for any run of the process.
 */
const PROCESS_SETTERS = [
  "setLogSink",
  "setBackendReader",
  "setStackIdentityReader",
  "useEnvironmentFor",
  "useSettingsOf",
  "setRetryDelay",
  "setReadTimeout",
  "setCreateLookupGrace",
  "setPreviewedWait",
  "keepCatalogueForAllRuns",
  "resetConfiguration",
];

/** The process setters `text` imports (`import { setLogSink } from …`), and whether it imports testing.ts. */
export function settersImported(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (/\/testing(\.js)?$/.test(statement.moduleSpecifier.text)) found.push(`${file} testing.ts`);
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        if (PROCESS_SETTERS.includes(name)) found.push(`${file} ${name}`);
      }
  }
  return found;
}

describe("the shipped commands (killed-orders, import-file, bill)", () => {
  const COMMANDS = ["provider/adopt", "provider/bill"];

  it("set nothing a provider process keeps: no test seam, no process configuration", () => {
    const files = COMMANDS.flatMap((dir) => sources(join(ROOT, dir)));
    expect(files.map((path) => relative(ROOT, path).split("\\").join("/"))).toEqual(
      expect.arrayContaining([
        "provider/adopt/killed-orders.ts",
        "provider/adopt/cli.ts",
        "provider/bill/cli.ts",
      ]),
    );
    const found = files.flatMap((path) =>
      settersImported(relative(ROOT, path).split("\\").join("/"), readFileSync(path, "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("finds a setter a command imports", () => {
    const text =
      'import { setLogSink } from "../impl/engine/log.js";\nimport * as t from "../impl/testing.js";\n';
    expect(settersImported("provider/adopt/x.ts", text)).toEqual([
      "provider/adopt/x.ts setLogSink",
      "provider/adopt/x.ts testing.ts",
    ]);
  });

  it("import-file leaves the names of the process's settings as they were (its variables are its own)", async () => {
    const before = settingName("requestsPerSecond");
    const stderr: string[] = [];
    const io = {
      stdout: { write: () => true } as unknown as NodeJS.WritableStream,
      stderr: { write: (text: string) => (stderr.push(text), true) } as unknown as NodeJS.WritableStream,
      env: { ...process.env, RIMUHOSTING_APIKEY: "a-key", RIMUHOSTING_REQUESTSPERSECOND: "fast" },
      cwd: mkdtempSync(join(tmpdir(), "import-file-")),
    };
    // A value that is no number: refused before any call, named as the variable it was read from.
    expect(await runImportFile(["--out", join(io.cwd, "import.json")], io)).toBe(2);
    expect(stderr.join("")).toContain("RIMUHOSTING_REQUESTSPERSECOND must be a number");
    // This process's own settings are still named as its configuration says, not as the command's were.
    expect(settingName("requestsPerSecond")).toBe(before);
    expect(before).toBe("rimuhosting:requestsPerSecond");
  });
});
