/**
 * The read-back after a change, shared (issue 90): a VPS changed (resized, moved, reinstalled) is read again once its
 * calls return, since their answers may not show the change (docs/rimuhosting-api.md R9). Each read-back is served
 * from a listing of the account's active orders read after the change returned, and one listing serves every
 * read-back waiting for it: an update of N VPSs reads the account a few times, not each VPS once (N requests against
 * the account's rate limit).
 *
 * A read-back waits while other changes of this process are still under way (their calls not returned), so that
 * the one listing read when they are done serves them all, but never longer than READ_BACK_WAIT_MS: so a fleet's
 * read-backs cost one listing per READ_BACK_WAIT_MS of changes landing, whatever the fleet's size. At most one
 * listing is read at a time; a read-back asked while one is being read waits for the next (the one under way may have
 * been asked for before its change returned).
 *
 * Owns: the waiting read-backs and the count of changes under way. The listing is the account view's.
 */
import type { AboutOrder } from "../../../contract/index.js";

/** The longest a read-back waits for changes still under way before the account is listed for it. */
export const READ_BACK_WAIT_MS = 1_000;

interface Waiting {
  resolve: (orders: AboutOrder[]) => void;
  reject: (error: unknown) => void;
}

export class ReadBacks {
  /** Changes of this process whose calls have not returned yet. */
  private underWay = 0;
  /** Read-backs waiting for the next listing. */
  private waiting: Waiting[] = [];
  private reading = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The account's active orders, read now. */
    private readonly list: () => Promise<AboutOrder[]>,
    private readonly waitMs = READ_BACK_WAIT_MS,
  ) {}

  /** Runs `calls`, the calls of one change: a read-back asked meanwhile waits for them (up to waitMs). */
  async change<T>(calls: () => Promise<T>): Promise<T> {
    this.underWay += 1;
    try {
      return await calls();
    } finally {
      this.underWay -= 1;
      this.schedule();
    }
  }

  /** The account's active orders, as listed after this call. */
  after(): Promise<AboutOrder[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.schedule();
    });
  }

  /** Reads the next listing now when nothing is under way, else once the first waiting read-back has waited enough. */
  private schedule(): void {
    if (this.reading || this.waiting.length === 0) return;
    if (this.underWay === 0) return this.read();
    this.timer ??= setTimeout(() => this.read(), this.waitMs);
  }

  private read(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.reading || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.reading = true;
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
