/**
 * Removes the API key from text the client did not write itself (service messages, proxy pages,
 * network error messages) before it goes into an error or a log line. Defence in depth: none of
 * those should contain the key, but a misbehaving proxy echoing headers must not leak it.
 */
const REDACTED = "[redacted]";

export type Redactor = (text: string) => string;

export function createRedactor(apiKey: string | undefined): Redactor {
  return (text) => {
    let out = text.replace(/(apikey\s*=\s*)[^\s"'&;,]+/gi, `$1${REDACTED}`);
    if (apiKey) out = out.split(apiKey).join(REDACTED);
    return out;
  };
}
