/**
 * Size limits of a VPS that both sides need: the emulator refuses a request below them, and the provider
 * refuses the same inputs in `check()` (preview) before any request is made. Zod-free, like literals.ts.
 * Where the figures come from: docs/rimuhosting-api.md §8.
 */

/** The smallest memory a VPS can be ordered or resized to, in MB. */
export const MIN_MEMORY_MB = 128;

/** The smallest primary disk a VPS can be ordered or resized to, in MB. */
export const MIN_DISK_MB = 1024;
