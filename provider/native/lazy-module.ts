/**
 * A module the plugin evaluates with the first call that needs it (server.ts, issue 34), loaded at most once.
 *
 * Loading is tried once. If it fails, the failure is kept, and that call and every later one get the same clean
 * error, which server.ts answers like any other failed call; the plugin stays up. `require`'s own cache is not
 * relied on: Node forgets a module that threw and would evaluate it again, while the bundle's CommonJS wrapper
 * keeps the half-filled exports of the first attempt and would hand them out as if loading had worked.
 */
export function lazyModule<T>(what: string, load: () => T): () => T {
  let loaded: { module: T } | { message: string } | undefined;
  return () => {
    if (loaded === undefined) {
      try {
        loaded = { module: load() };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        loaded = { message: `pulumi-resource-rimuhosting could not load its ${what}: ${reason}` };
      }
    }
    if ("message" in loaded) throw new Error(loaded.message);
    return loaded.module;
  };
}
