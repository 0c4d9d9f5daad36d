/**
 * The read-back after a change, shared (issue 90): a VPS changed (resized, moved, reinstalled) is read again once its
 * calls return, since their answers may not show the change (docs/rimuhosting-api.md R9). Each read-back is served
 * from a listing of the account's active orders read after the change returned, and one listing serves every
 * read-back waiting for it: an update of N VPSs reads the account a few times, not each VPS once (N requests against
 * the account's rate limit).
 *
 * A listing starts READ_BACK_GAP_MS after the one before it started (the first: at once), or once that one is read,
 * whichever is later, and serves every read-back asked meanwhile. So the read-backs of a fleet whose changes land
 * over T seconds cost at most one listing per READ_BACK_GAP_MS of T plus one, whatever the fleet's size. While other
 * changes are still under way (begin()), the listing waits for them too, but never longer than READ_BACK_GAP_MS after
 * its first read-back was asked: the fleet's last change is read back by the listing that starts once it returns, not
 * one the gap later (issue 90: a 500-VPS update's last read-back waited up to the whole gap). A single VPS's update
 * waits for nothing; each read-back waits at most that gap and one listing. A read-back asked while a listing is being
 * read waits for the next (that one may have been asked for before its change returned).
 *
 * Owns: the waiting read-backs, the changes under way and when the next listing starts. The listing is the account
 * view's.
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
  /** When the first of the waiting read-backs was asked (performance.now()); none waiting: Infinity. */
  private firstAsked = Infinity;
  /** Changes begun whose read-back is not asked yet and that did not end without one (begin()). */
  private underWay = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The account's active orders, read now. */
    private readonly list: () => Promise<AboutOrder[]>,
    private readonly gapMs = READ_BACK_GAP_MS,
  ) {}

  /**
   * A change begins whose read-back the next listing may serve: it waits for it (see above). The function returned
   * says the change is over: give it to after() with its read-back, and call it when the change ends without one.
   */
  begin(): () => void {
    this.underWay++;
    let over = false;
    return () => {
      if (over) return;
      over = true;
      this.underWay--;
      this.schedule();
    };
  }

  /**
   * The account's active orders, as listed after this call. `changeOver`: the change read back is over (begin()),
   * said once its read-back waits, so the listing it lets start serves it too.
   */
  after(changeOver?: () => void): Promise<AboutOrder[]> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) this.firstAsked = performance.now();
      this.waiting.push({ resolve, reject });
      changeOver?.();
      this.schedule();
    });
  }

  /**
   * Reads the next listing now, or once it is due: the gap since the last one started has passed and, while
   * changes are under way, the gap since its first read-back was asked.
   */
  private schedule(): void {
    if (this.reading || this.waiting.length === 0) return;
    const due = Math.max(this.lastStarted, this.underWay > 0 ? this.firstAsked : -Infinity) + this.gapMs;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const wait = due - performance.now();
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
    this.firstAsked = Infinity;
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
