/**
 * Progress lines from the provider. In the dynamic-provider host, console output is what reaches the
 * user (pulumi.log finds no engine there, docs/dynamic-providers.md §7). Never given secrets.
 */
let sink: (line: string) => void = (line) => console.log(line);

export function log(line: string): void {
  sink(`[rimuhosting] ${line}`);
}

/** Replaces the output (tests collect lines instead of printing them). */
export function setLogSink(next: (line: string) => void): void {
  sink = next;
}
