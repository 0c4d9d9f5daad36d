/**
 * The emulator's date, moved by hand (--now at start, POST /__emulator/time/advance at run time), and what a real
 * account shows on the new date: work in progress is over, and an order whose scheduled cancellation (R3) the date
 * passed is shut down and removed. What depends on the date and is derived from it at each request moves by itself:
 * the billing period (30 days from the order date, so a cancellation scheduled after a move takes the next period's
 * end), a deletion's credit for the unused part of it, uptimes and the data-transfer months.
 */
import type { TimeControl } from "./clock.js";
import type { EmulatorContext } from "./domain/context.js";
import { DAY_MS } from "./domain/durations.js";
import { settleExpiredCancellation } from "./domain/lifecycle.js";

/** `+40d`, `+12h`: a duration ahead of the machine's date, for --now. */
const AHEAD = /^\+(\d+(?:\.\d+)?)([dh])$/;

/**
 * --now's value as epoch milliseconds: an ISO 8601 date (`2027-01-15`, midnight UTC) or date and time
 * (`2027-01-15T09:30:00Z`), or a duration ahead of `machineNowMs` (`+40d`, `+12h`). Undefined when it is neither.
 */
export function parseNowSetting(value: string, machineNowMs: number): number | undefined {
  const ahead = AHEAD.exec(value.trim());
  if (ahead) return machineNowMs + Number(ahead[1]) * (ahead[2] === "d" ? DAY_MS : DAY_MS / 24);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

export interface CalendarMove {
  /** Waits of work in progress the move ended. */
  finished: number;
  /** Orders whose scheduled cancellation the move passed: now removed. */
  ordersEnded: number[];
}

/**
 * Moves the emulator's date to `targetMs` (the caller has checked it is not earlier than now): ends every wait of
 * work in progress (the move passes their end) and settles the cancellations it passed.
 */
export function moveCalendar(ctx: EmulatorContext, time: TimeControl, targetMs: number): CalendarMove {
  time.setOffsetMs(time.offsetMs() + (targetMs - ctx.clock.now()));
  const finished = time.finishWork();
  const now = ctx.clock.now();
  const ordersEnded: number[] = [];
  for (const order of ctx.store.state.orders) {
    if (!settleExpiredCancellation(order, now)) continue;
    ordersEnded.push(order.orderOid);
    ctx.store.changed(order);
  }
  // The date is in the state file too (a restart keeps it), and every cached rendering is of the old date.
  ctx.store.changed();
  return { finished, ordersEnded };
}
