/**
 * Every type a public signature of `pulumi-rimuhosting` uses is exported from it, so a user can name
 * it (api-extractor calls a miss a "forgotten export"). Read from the sources with the compiler API:
 * the types of every export's declaration, transitively, skipping function bodies and private members.
 */
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");
const ENTRY = path.join(ROOT, "provider/index.ts");

function forgottenExports(): string[] {
  const program = ts.createProgram([ENTRY], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const ours = (declaration: ts.Declaration) => {
    const file = declaration.getSourceFile().fileName;
    return file.startsWith(ROOT) && !file.includes("/node_modules/");
  };

  const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  const exported = new Set(checker.getExportsOfModule(entry).map(resolve));
  // A type is nameable if the entry exports it or an alias of the same type (e.g. the zod-free
  // DcLocation of contract/literals.ts for the one contract/enums.ts infers from the same list).
  const exportedTypes = new Set([...exported].map((symbol) => checker.getDeclaredTypeOfSymbol(symbol)));
  const isExported = (symbol: ts.Symbol) =>
    exported.has(symbol) || exportedTypes.has(checker.getDeclaredTypeOfSymbol(symbol));
  const missing = new Set<string>();
  const visited = new Set<ts.Symbol>();

  const visitDeclaration = (declaration: ts.Node, usedBy: string): void => {
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        // Signature only: parameters, type parameters and return type.
        for (const child of [...(node.typeParameters ?? []), ...node.parameters]) visit(child);
        if (node.type) visit(node.type);
        return;
      }
      if (
        ts.isPropertyDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node)
      ) {
        const flags = ts.getCombinedModifierFlags(node);
        if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return;
        if (node.name && ts.isPrivateIdentifier(node.name)) return;
      }
      if (ts.isVariableDeclaration(node)) {
        if (node.type) visit(node.type);
        return; // the initializer is implementation
      }
      if (ts.isPropertyDeclaration(node) && node.initializer) {
        if (node.type) visit(node.type);
        return;
      }
      if (ts.isTypeQueryNode(node)) return; // `typeof x` names a value
      if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
        const name = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
        const symbol = checker.getSymbolAtLocation(name);
        if (symbol) check(resolve(symbol), usedBy);
      }
      ts.forEachChild(node, visit);
    };
    visit(declaration);
  };

  const check = (symbol: ts.Symbol, usedBy: string): void => {
    const typeLike =
      ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;
    if (!(symbol.flags & typeLike)) return;
    const declarations = (symbol.declarations ?? []).filter(ours);
    if (declarations.length === 0) return;
    if (!isExported(symbol)) missing.add(`${symbol.name} (used by ${usedBy})`);
    if (visited.has(symbol)) return;
    visited.add(symbol);
    for (const declaration of declarations) visitDeclaration(declaration, symbol.name);
  };

  for (const symbol of exported) {
    if (visited.has(symbol)) continue;
    visited.add(symbol);
    for (const declaration of (symbol.declarations ?? []).filter(ours))
      visitDeclaration(declaration, symbol.name);
  }
  return [...missing].sort();
}

describe("the public API", () => {
  it("exports every type its signatures use", () => {
    expect(forgottenExports()).toEqual([]);
  });
});
