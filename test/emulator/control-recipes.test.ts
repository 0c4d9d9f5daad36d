/**
 * docs/emulator.md's TypeScript recipe for a user's own tests, run as the page gives it (its jest `test` handed to
 * this file's runner) against an emulator with a create waiting at time scale 1: the recipe saves and loads the
 * account, sets and clears a chaos rule and finishes the create by hand. Its Python and Go twins run in
 * test/docs/control-recipes.test.ts (they start processes).
 */
import * as ts from "typescript";
import { recipe } from "../docs/support/code-blocks.js";
import { expectControlRecipeLeft } from "../helpers/control-api.js";
import { answeredSoon, pendingCreate } from "../helpers/pending-create.js";
import { startTestEmulator } from "../helpers/start-emulator.js";

test("docs/emulator.md's TypeScript recipe: snapshot saved and loaded, chaos set and cleared, a create finished", async () => {
  const emu = await startTestEmulator({ control: true, timeScale: 1 });
  try {
    const { answer: create } = await pendingCreate(emu, "recipe.example.com");
    const source = recipe("docs/emulator.md#control-typescript").replace(
      "http://127.0.0.1:8780",
      emu.baseUrl.replace(/\/r$/, ""),
    );
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None },
    });
    const tests: (() => Promise<void>)[] = [];
    new Function("test", outputText)((_name: string, body: () => Promise<void>) => tests.push(body));
    expect(tests).toHaveLength(1);
    await tests[0]!();

    expect((await answeredSoon(create)).status).toBe(200);
    await expectControlRecipeLeft(emu.baseUrl);
  } finally {
    await emu.close();
  }
});
