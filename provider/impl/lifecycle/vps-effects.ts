/**
 * What a planned change does to a running VPS, as data, and in words: a reinstall erases the disk, a resize
 * restarts the VPS, a move changes its addresses (and which outputs that makes unknown), a stop takes it off
 * the network, and an order-only input is recorded but not applied. diffVps() returns effectNotes() of
 * these effects, which both front ends show as warnings on the resource; the native plugin's preview Update also
 * reads the effects for the outputs a change makes unknown.
 */
import type { VpsChanges } from "../inputs/vps-changes.js";
import type { VpsInputName } from "../fields/vps-fields.js";
import { info, warning, type Note } from "../engine/notes.js";

/** The outputs a move changes: the new host's addresses. */
export const MOVE_CHANGES_OUTPUTS = ["primaryIp", "secondaryIps"] as const;

export interface ChangeEffects {
  /** Inputs whose change orders a new VPS (the old one is cancelled). */
  replaces: VpsInputName[];
  /** A reinstall in place, forced by these inputs: the disk is erased. */
  reinstall?: { inputs: VpsInputName[] };
  /** A resize of these inputs: the VPS restarts. */
  restart?: { inputs: VpsInputName[] };
  /** A move to host `to`: the IP addresses change; `changesOutputs` are unknown until it ran. */
  move?: { to: string; changesOutputs: readonly string[] };
  /** The power state is set: a stop takes the VPS off the network. */
  power?: string;
  /** Inputs that changed but are used only when ordering: recorded, not applied. */
  notApplied: VpsInputName[];
}

export function effectsOf(changes: VpsChanges, news: Record<string, unknown>): ChangeEffects {
  const effects: ChangeEffects = { replaces: [...changes.replaces], notApplied: [...changes.orderOnly] };
  if (changes.replaces.length > 0) return effects; // a new VPS: nothing happens to the old one but its cancellation
  if (changes.reinstall.length > 0) effects.reinstall = { inputs: [...changes.reinstall] };
  if (changes.parameters.length > 0) effects.restart = { inputs: [...changes.parameters] };
  if (changes.move) effects.move = { to: String(news.hostServerOid), changesOutputs: MOVE_CHANGES_OUTPUTS };
  if (changes.runningState && typeof news.runningState === "string") effects.power = news.runningState;
  return effects;
}

/** The effects in the user's words, one note each, naming the resource and the inputs that cause them. */
export function effectNotes(name: string, effects: ChangeEffects): Note[] {
  const notes: Note[] = [];
  const { reinstall, restart, move, power } = effects;
  if (reinstall)
    notes.push(
      warning(
        `${name}: changing ${reinstall.inputs.join(", ")} reinstalls the VPS in place: its disk is erased, and ` +
          `everything on it not in the program is lost (same order, same IP addresses).`,
      ),
    );
  if (restart) notes.push(warning(`${name}: resizing ${restart.inputs.join(", ")} restarts the VPS.`));
  if (move)
    notes.push(
      warning(
        `${name}: moving to host server ${move.to} changes its IP addresses: ${move.changesOutputs.join(", ")} ` +
          `are unknown until the move has run, and whatever is built from them changes too (DNS records, firewall ` +
          `rules). The move takes 5–10 minutes per GB of disk.`,
      ),
    );
  if (power === "NOTRUNNING") notes.push(warning(`${name}: runningState NOTRUNNING stops the VPS.`));
  if (power === "RUNNING") notes.push(info(`${name}: runningState RUNNING starts the VPS.`));
  for (const field of effects.notApplied) {
    notes.push(
      warning(
        `${name}: ${field} is used only when ordering and the API cannot change it on an existing order; ` +
          `the change is recorded in the inputs but not applied (the outputs show the order's value).`,
      ),
    );
  }
  return notes;
}
