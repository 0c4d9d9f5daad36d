/** What the domain operations need: the state store and the injected clock. */
import type { Clock } from "../clock.js";
import type { StateStore } from "../state/store.js";

export interface EmulatorContext {
  store: StateStore;
  clock: Clock;
}
