/** Collects everything a user could see from a failure and asserts the API key is nowhere in it. */
import { inspect } from "node:util";

export function visibleText(error: unknown): string {
  const parts = [
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    inspect(error, { showHidden: true, depth: 10 }),
  ];
  let cause = (error as { cause?: unknown } | undefined)?.cause;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    parts.push(String(cause), JSON.stringify(cause) ?? "", inspect(cause, { showHidden: true, depth: 10 }));
    cause = (cause as { cause?: unknown }).cause;
  }
  if (error instanceof Error && error.stack) parts.push(error.stack);
  return parts.join("\n");
}

export function expectNoSecret(texts: readonly string[] | string, secret: string): void {
  const all = Array.isArray(texts) ? texts.join("\n") : (texts as string);
  expect(all.includes(secret)).toBe(false);
}
