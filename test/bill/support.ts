/**
 * What the bill's in-process tests share (budgets.test.ts, render.test.ts): the bill of a log written by hand in the
 * shape `pulumi preview --event-log` writes (test/helpers/preview-log.ts), and the two VPSs most of their cases
 * start from: one resized from $10 to $16 a month, one left alone at $30.
 */
import { billOf } from "../../provider/bill/bill";
import { parsePreviewLog } from "../../provider/bill/event-log";
import { resized, type VpsSpec } from "../helpers/preview-log";

export const bill = (text: string) => billOf(parsePreviewLog(text, "preview.events"));

export const RESIZE = resized(10, 16);
export const KEPT: VpsSpec = { name: "cache", op: "same", fee: 30, planned: 30 };
