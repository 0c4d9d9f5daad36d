/**
 * Which stack a resource's creationScope names, and where a file backend's directory is: the two small readings the
 * rules of ownership and the killed-orders command share (its lock is a file there).
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The stack a creationScope (`<project>/<stack>/<name>`) names, or undefined. */
export function stackOfScope(creationScope: unknown): { project: string; stack: string } | undefined {
  if (typeof creationScope !== "string") return undefined;
  const [project, stack, ...name] = creationScope.split("/");
  return project && stack && name.length > 0 ? { project, stack } : undefined;
}

/** The directory of a `file://` backend URL (as the CLI resolves `~` and a relative path), or undefined. */
export function fileBackendDir(url: string, cwd: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const path = decodeURIComponent(url.slice("file://".length).split("?")[0]!);
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return resolve(cwd, path);
}
