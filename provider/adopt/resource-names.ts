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

/** `web-1.example.com` → `web1ExampleCom`: the domain name's letters and digits, each later word capitalised. */
export function identifierOf(domainName: string): string {
  const words = domainName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // the accents NFKD takes off their letters
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  let name = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("");
  if (!/^[a-z]/.test(name)) name = `vps${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  if (RESERVED.has(name)) name = `${name}Vps`;
  return name;
}

/**
 * A name for each domain name, in the order given: identifierOf(), with `2`, `3`… after the second and later of
 * names that would be the same. Names are compared without case, as a language that changes a name's case
 * (Python's snake_case, Go's exported names) must not make two of them one.
 */
export function uniqueNames(domainNames: readonly string[]): string[] {
  const taken = new Set<string>();
  return domainNames.map((domainName) => {
    const base = identifierOf(domainName);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
