/**
 * The resource names `import-file` gives the VPSs it lists: one per domain name, in lower camel case
 * (`web-1.example.com` → `web1ExampleCom`), so that the code `pulumi import` writes declares a variable of that name
 * in every language it writes (YAML, TypeScript, Python, Go) without renaming it, and unique, so that no two VPSs
 * get one name. The name is also the resource's logical name, which the plugin's creation token is derived from.
 */

/**
 * Words a generated program cannot use as a variable: each language's keywords, and the names the generated code
 * itself declares or imports (`pulumi`, the SDK's module `rimuhosting`, Go's `ctx`). A name that is one of them
 * gets `Vps` after it (`import` → `importVps`).
 */
const RESERVED = new Set(
  [
    // TypeScript / JavaScript
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
      "function if import in instanceof new null return super switch this throw true try typeof var void while " +
      "with yield let static implements interface package private protected public await async any boolean " +
      "number string symbol undefined arguments eval",
    // Python (keywords, soft keywords and the builtins generated code may call)
    "and as assert def del elif except from global is lambda nonlocal not or pass raise none match type " +
      "print str int float list dict bool id object",
    // Go (keywords, predeclared names)
    "chan defer fallthrough func go goto map range select struct append cap close complex copy error iota " +
      "len make nil panic real recover",
    // What the generated programs declare or import
    "pulumi rimuhosting ctx err main config opts",
  ]
    .join(" ")
    .split(" "),
);

/** Words joined as an identifier: the first in lower case, each later one capitalised, kept valid and unreserved. */
function identifierOfWords(words: readonly string[]): string {
  let name = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("");
  if (!/^[\p{Ll}\p{Lo}]/u.test(name)) name = `vps${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  if (RESERVED.has(name)) name = `${name}Vps`;
  return name;
}

/** The domain name without accents (NFKD takes them off their letters). */
const plainLetters = (domainName: string): string =>
  domainName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");

/**
 * `web-1.example.com` → `web1ExampleCom`: the domain name's letters and digits, each later word capitalised. Letters
 * of any script are kept, as each language's identifiers keep them (`сервер.example.ru` → `серверExampleRu`, never
 * `exampleRu`, which would no longer say which VPS it is); accents come off (`café` → `cafe`).
 */
export function identifierOf(domainName: string): string {
  const words = plainLetters(domainName)
    .toLowerCase()
    .split(/[^\p{L}\p{Nd}]+/u)
    .filter((word) => word !== "");
  return identifierOfWords(words);
}

/** How a spelled name says the characters an identifier drops. */
const SEPARATOR_WORDS: Record<string, string> = { ".": "dot", "-": "dash", _: "underscore" };

/**
 * The domain name spelled out, for names that identifierOf() makes the same: each separator as a word and each
 * run of capitals after `caps`, so the name says which domain it is (`shop-example.com` →
 * `shopDashExampleDotCom`, `WEB-2.example.com` → `capsWebDash2DotExampleDotCom`).
 */
export function spelledIdentifierOf(domainName: string): string {
  const words: string[] = [];
  for (const [part] of plainLetters(domainName).matchAll(/[\p{Ll}\p{Lo}\p{Nd}]+|\p{Lu}+|[^\p{L}\p{Nd}]/gu)) {
    if (/^\p{Lu}+$/u.test(part)) words.push("caps", part.toLowerCase());
    else if (/^[\p{Ll}\p{Lo}\p{Nd}]+$/u.test(part)) words.push(part);
    else words.push(SEPARATOR_WORDS[part] ?? "x");
  }
  return identifierOfWords(words);
}

/**
 * A name for each of the account's VPSs (`domainNames`, oldest order first), the same every time the command runs on
 * the account, however it grows or which VPSs the filters select, and none that `taken` (the names the stack's
 * resources have: a run on a grown account adopts in batches) already holds; `own[i]`, the name the stack gives VPS
 * `i` already, is its name. A VPS gets identifierOf() unless an older VPS's name is the same; then it is spelled out
 * (spelledIdentifierOf()), so that the name says which VPS it is, and a VPS added later never changes the name of
 * one listed before it. Names are compared without case, as a language that changes a name's case (Python's
 * snake_case, Go's exported names) must not make two of them one. A name still taken (by the stack, or a domain
 * name spelled as another's) is spelled out, then gets `2`, `3`…
 */
export function uniqueNames(
  domainNames: readonly string[],
  taken: ReadonlySet<string> = new Set(),
  own: readonly (string | undefined)[] = [],
): string[] {
  const used = new Set(
    [...taken, ...own.filter((name) => name !== undefined)].map((name) => name.toLowerCase()),
  );
  const plainTaken = new Set<string>();
  return domainNames.map((domainName, i) => {
    const plain = identifierOf(domainName);
    const first = !plainTaken.has(plain.toLowerCase());
    plainTaken.add(plain.toLowerCase());
    if (own[i] !== undefined) return own[i];
    const base = first && !used.has(plain.toLowerCase()) ? plain : spelledIdentifierOf(domainName);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) name = `${base}${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}
