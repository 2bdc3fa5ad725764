/**
 * Which engine call is running, shared by the engine worker and its client through one
 * SharedArrayBuffer slot (docs/security.md, "SQL time limit").
 *
 * sql.js cannot be interrupted from outside, so a query past its time limit is stopped by
 * terminating the worker. That must never hurt a bystander: the client stops the worker only
 * while *that query* is the call running, and the worker, once told to stop, starts nothing
 * more. So at the moment of termination no write is halfway, every call queued behind the query
 * has provably not started (the client sends it again to the fresh worker), and a write is
 * never reported failed after it committed.
 *
 * The slot holds the running call's id, IDLE between calls, or STOPPING once the client has
 * decided to terminate. Both sides move it only with compare-and-exchange, so "the query is
 * still running" and "stop" are decided atomically: the worker cannot slip into its next call
 * between the client's check and its stop.
 */
const IDLE = 0;
const STOPPING = -1;
/** Work the worker does between calls (checkpoints): never mistaken for a call id. */
export const MAINTENANCE_ID = 0x7fffffff;

export class CallGate {
  private readonly slot: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.slot = new Int32Array(buffer);
  }

  /**
   * Worker: claims the gate for call `id`. Once the client is stopping the worker this never
   * returns: the worker waits, having started nothing, until it is terminated.
   */
  enter(id: number): void {
    while (Atomics.compareExchange(this.slot, 0, IDLE, id) !== IDLE) {
      Atomics.wait(this.slot, 0, STOPPING);
    }
  }

  /** Worker: call `id` is over (a no-op once the client is stopping the worker). */
  leave(id: number): void {
    Atomics.compareExchange(this.slot, 0, id, IDLE);
  }

  /** Client: stops the worker if, and only if, call `id` is what it runs right now. */
  stopIfRunning(id: number): boolean {
    return Atomics.compareExchange(this.slot, 0, id, STOPPING) === id;
  }

  /** Client: the call the worker was running (when it died), or null between calls. */
  running(): number | null {
    const id = Atomics.load(this.slot, 0);
    return id > 0 && id !== MAINTENANCE_ID ? id : null;
  }
}
