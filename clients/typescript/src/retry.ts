/**
 * When to try a call again, and how long to wait first (pure: no I/O, no clock).
 *
 * A call is tried again only when its error says it may be (`retryable`, or a connection
 * that failed), and only if repeating it cannot do twice what the caller asked once (see
 * `mayRetry`). The wait doubles from `backoff` up to `maxBackoff` with jitter, so many
 * clients refused together do not come back together; a `Retry-After` from the server
 * replaces it, since the server knows when its window reopens.
 */

/**
 * Statuses that mean the server refused the call before running it: repeating it cannot
 * apply it twice, whatever the op (a rate limit, a busy server, a ref that moved under a
 * compare-and-swap).
 */
export const REFUSED_BEFORE_RUNNING: ReadonlySet<number> = new Set([409, 429, 503]);

export interface RetryOptions {
  /** More tries after the first (default 3). */
  retries?: number;
  /** Seconds before the first retry, doubled each time (default 0.5). */
  backoff?: number;
  /** The longest wait between tries, in seconds (default 8). */
  maxBackoff?: number;
  /** A longer Retry-After is thrown at once instead of waited for (default 60 s). */
  maxRetryAfter?: number;
}

export class RetryPolicy {
  readonly retries: number;
  readonly backoff: number;
  readonly maxBackoff: number;
  readonly maxRetryAfter: number;

  constructor(options: RetryOptions = {}) {
    this.retries = options.retries ?? 3;
    this.backoff = options.backoff ?? 0.5;
    this.maxBackoff = options.maxBackoff ?? 8;
    this.maxRetryAfter = options.maxRetryAfter ?? 60;
    if (!(this.retries >= 0)) throw new RangeError("retries must be >= 0");
    if (!(this.backoff >= 0 && this.backoff <= this.maxBackoff)) {
      throw new RangeError("backoff must be from 0 to maxBackoff");
    }
    if (!(this.maxRetryAfter >= 0)) throw new RangeError("maxRetryAfter must be >= 0");
  }

  /**
   * Whether a failed try may be repeated. `safe`: the call is idempotent (a read, a store
   * with its idempotency key, an op whose repeat changes nothing). `sent`: the request may
   * have reached the server. `status`: the HTTP answer, null when there was none.
   */
  static mayRetry(retryable: boolean, status: number | null, sent: boolean,
                  safe: boolean): boolean {
    if (!retryable) return false;
    if (status === null) return safe || !sent;
    return safe || REFUSED_BEFORE_RUNNING.has(status);
  }

  /**
   * Seconds to wait before retry number `attempt + 1` (from 0), or null when no retry is
   * left or the server asks for a longer wait than `maxRetryAfter`. `jitter` in [0, 1]
   * scales the backoff between half and all of it.
   */
  delay(attempt: number, retryAfter: number | null, jitter: number): number | null {
    if (attempt >= this.retries) return null;
    if (retryAfter !== null) return retryAfter <= this.maxRetryAfter ? retryAfter : null;
    const full = Math.min(this.maxBackoff, this.backoff * 2 ** Math.min(attempt, 62));
    return full * (0.5 + 0.5 * Math.min(Math.max(jitter, 0), 1));
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), >= 0; null when
 * absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (text === "") return null;
  let seconds = Number(text);
  if (Number.isNaN(seconds)) {
    const when = Date.parse(text);
    if (Number.isNaN(when)) return null;
    seconds = (when - now) / 1000;
  }
  return Math.min(Math.max(seconds, 0), 1e9);
}
