/**
 * Which engine call is running, shared by the engine worker and its client through one
 * SharedArrayBuffer slot. When the worker dies, the client reads from it which call it was
 * running: only that one may have done anything (engine-client.ts answers it from where a
 * write is saved); every other call sent to the dead worker provably never started and is
 * sent again to the fresh one. A shared slot, unlike a "started" message, cannot be lost or
 * late when the worker dies right after starting a call.
 */
const IDLE = 0;
/** Work the worker does between calls (checkpoints): never mistaken for a call id. */
export const MAINTENANCE_ID = 0x7fffffff;

export class CallGate {
  private readonly slot: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.slot = new Int32Array(buffer);
  }

  /** Worker: call `id` starts (calls run one at a time). */
  enter(id: number): void {
    Atomics.store(this.slot, 0, id);
  }

  /** Worker: call `id` is over. */
  leave(id: number): void {
    Atomics.compareExchange(this.slot, 0, id, IDLE);
  }

  /** Client: the call the worker was running (when it died), or null between calls. */
  running(): number | null {
    const id = Atomics.load(this.slot, 0);
    return id > 0 && id !== MAINTENANCE_ID ? id : null;
  }
}
