/**
 * The read-back after a change, shared (issue 90): a VPS changed (resized, moved, reinstalled) is read again once its
 * calls return, since their answers may not show the change (docs/rimuhosting-api.md R9). Each read-back is served
 * from a listing of the account's active orders read after the change returned, and one listing serves every
 * read-back waiting for it: an update of N VPSs reads the account a few times, not each VPS once (N requests against
 * the account's rate limit).
 *
 * The first read-back lists at once (a single VPS's update waits for nothing); the next listing starts
 * READ_BACK_GAP_MS after the one before it started, or once that one is read, whichever is later, and serves every
 * read-back asked meanwhile. So the read-backs of a fleet whose changes land over T seconds cost at most one listing
 * per READ_BACK_GAP_MS of T plus one, whatever the fleet's size, and each waits at most that gap and one listing. A
 * read-back asked while a listing is being read waits for the next (that one may have been asked for before its
 * change returned).
 *
 * Owns: the waiting read-backs and when the next listing starts. The listing is the account view's.
 */
import type { AboutOrder } from "../../../contract/index.js";

/** The least time between the starts of two read-back listings. */
export const READ_BACK_GAP_MS = 1_000;

interface Waiting {
  resolve: (orders: AboutOrder[]) => void;
  reject: (error: unknown) => void;
}

export class ReadBacks {
  /** Read-backs waiting for the next listing. */
  private waiting: Waiting[] = [];
  private reading = false;
  /** When the last listing started (performance.now()); none yet: -Infinity. */
  private lastStarted = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The account's active orders, read now. */
    private readonly list: () => Promise<AboutOrder[]>,
    private readonly gapMs = READ_BACK_GAP_MS,
  ) {}

  /** The account's active orders, as listed after this call. */
  after(): Promise<AboutOrder[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.schedule();
    });
  }

  /** Reads the next listing now, or once the gap since the last one started has passed. */
  private schedule(): void {
    if (this.reading || this.waiting.length === 0 || this.timer !== undefined) return;
    const wait = this.lastStarted + this.gapMs - performance.now();
    if (wait <= 0) return this.read();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.read();
    }, wait);
  }

  private read(): void {
    if (this.reading || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.reading = true;
    this.lastStarted = performance.now();
    this.list()
      .then(
        (orders) => batch.forEach((w) => w.resolve(orders)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.reading = false;
        this.schedule();
      });
  }
}
