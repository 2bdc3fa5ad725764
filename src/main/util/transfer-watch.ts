/**
 * How long a remote server may keep a transfer waiting (docs/security.md, "timeouts"): the
 * response's headers within `headersMs`, no silence in the body longer than `stallMs`, at
 * least `minBytesPerSecond` on average once `rateGraceMs` have passed, and, when given, the
 * whole transfer within `deadlineMs`. Silence timeouts alone are not deadlines: a server sending
 * a byte every few seconds kept a download going for as long as it liked. The rate is checked by
 * a timer, not only when bytes arrive. Used by URL loads (jobs/download.ts) and the portal
 * client (portal/portal-client.ts).
 */
export interface TransferLimits {
  readonly headersMs: number;
  readonly stallMs: number;
  readonly minBytesPerSecond: number;
  readonly rateGraceMs: number;
  readonly deadlineMs?: number;
}

/** The errors a watch gives up with, worded by its user. */
export interface TransferReasons {
  headers(seconds: number): Error;
  stalled(seconds: number): Error;
  slow(bytesPerSecond: number): Error;
  deadline(seconds: number): Error;
}

const CHECK_EVERY_MS = 1_000;

export class TransferWatch {
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private bytes = 0;
  private headersSeen = false;
  private silence: NodeJS.Timeout;
  private readonly ticker: NodeJS.Timeout;
  private readonly onParentAbort: () => void;

  /** Aborted, with the reason the transfer was given up for, by a limit or by `parent`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  constructor(
    private readonly limits: TransferLimits,
    private readonly reasons: TransferReasons,
    private readonly parent?: AbortSignal,
  ) {
    this.onParentAbort = () => this.giveUp(parent!.reason instanceof Error ? parent!.reason : new Error('aborted'));
    if (parent?.aborted) this.onParentAbort();
    parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.silence = this.timer(limits.headersMs, () => reasons.headers(limits.headersMs / 1000));
    this.ticker = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.ticker.unref();
  }

  /** The response's headers arrived: from now on, silence and rate count. */
  gotHeaders(): void {
    this.headersSeen = true;
    this.restartSilence();
  }

  /** `n` more bytes of the body arrived. */
  progress(n: number): void {
    this.bytes += n;
    this.restartSilence();
  }

  /** Stops watching (the transfer ended, either way). */
  done(): void {
    clearTimeout(this.silence);
    clearInterval(this.ticker);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }

  /** The reason the transfer was given up for, if it was. */
  get reason(): Error | null {
    return this.controller.signal.aborted ? (this.controller.signal.reason as Error) : null;
  }

  private check(): void {
    const elapsed = Date.now() - this.started;
    if (this.limits.deadlineMs !== undefined && elapsed > this.limits.deadlineMs) {
      this.giveUp(this.reasons.deadline(this.limits.deadlineMs / 1000));
      return;
    }
    if (!this.headersSeen || elapsed <= this.limits.rateGraceMs) return;
    const rate = this.bytes / (elapsed / 1000);
    if (rate < this.limits.minBytesPerSecond) this.giveUp(this.reasons.slow(Math.round(rate)));
  }

  private restartSilence(): void {
    clearTimeout(this.silence);
    this.silence = this.timer(this.limits.stallMs, () => this.reasons.stalled(this.limits.stallMs / 1000));
  }

  private timer(ms: number, reason: () => Error): NodeJS.Timeout {
    const t = setTimeout(() => this.giveUp(reason()), ms);
    t.unref();
    return t;
  }

  private giveUp(reason: Error): void {
    if (this.controller.signal.aborted) return;
    this.done();
    this.controller.abort(reason);
  }
}
