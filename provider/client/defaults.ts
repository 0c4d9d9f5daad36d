/**
 * The production API root. In a file of its own, without zod, because the package's public types
 * re-export it: a program's compile then loads no zod typings through it.
 */
export const DEFAULT_BASE_URL = "https://rimuhosting.com/r";
