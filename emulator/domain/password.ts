/** Root passwords the server generates when a request names none (echoed back once, never stored). */
import type { Random } from "../random.js";

const ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function generatePassword(random: Random): string {
  return random.string(16, ALPHABET);
}
