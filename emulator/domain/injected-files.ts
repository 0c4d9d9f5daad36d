/** Files written into a new filesystem (file_injection_data of R4 and R10) that the emulator keeps. */
import { ROOT_AUTHORIZED_KEYS_PATH, type FileData } from "../../contract/index.js";

/** Root's authorized_keys as injected (the last entry for the path wins), or null when none was. */
export function injectedAuthorizedKeys(files: readonly FileData[] | null | undefined): string | null {
  const entries = (files ?? []).filter((file) => file.path === ROOT_AUTHORIZED_KEYS_PATH);
  return entries.at(-1)?.data_as_string ?? null;
}
