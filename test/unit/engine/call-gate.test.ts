import { describe, expect, it } from 'vitest';
import { CallGate, MAINTENANCE_ID } from '../../../src/main/engine/call-gate';

/** The slot both sides move atomically: the client stops only the call it means. */
describe('CallGate', () => {
  it('stops the worker only while the given call runs', () => {
    const worker = new CallGate();
    const client = new CallGate(worker.buffer);
    worker.enter(7);
    expect(client.running()).toBe(7);
    expect(client.stopIfRunning(6)).toBe(false); // an earlier call, already over
    expect(client.stopIfRunning(7)).toBe(true);
    expect(client.running()).toBeNull();
    worker.leave(7); // the query ended meanwhile: the worker stays stopped
    expect(client.stopIfRunning(7)).toBe(false);
    expect(client.running()).toBeNull();
  });

  it('does not stop a call that has already ended, nor maintenance', () => {
    const worker = new CallGate();
    const client = new CallGate(worker.buffer);
    worker.enter(3);
    worker.leave(3);
    expect(client.stopIfRunning(3)).toBe(false);
    worker.enter(MAINTENANCE_ID);
    expect(client.running()).toBeNull();
    expect(client.stopIfRunning(3)).toBe(false);
    worker.leave(MAINTENANCE_ID);
    worker.enter(4); // free again
    expect(client.running()).toBe(4);
  });
});
