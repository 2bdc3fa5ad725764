import { describe, expect, it } from 'vitest';
import { CallGate, MAINTENANCE_ID } from '../../../src/main/engine/call-gate';

/** The slot that tells the client which call a dead engine worker was running. */
describe('CallGate', () => {
  it('names the call running, and none between calls', () => {
    const worker = new CallGate();
    const client = new CallGate(worker.buffer);
    expect(client.running()).toBeNull();
    worker.enter(7);
    expect(client.running()).toBe(7);
    worker.leave(7);
    expect(client.running()).toBeNull();
    worker.enter(8);
    worker.leave(7); // a stale leave does not clear the next call
    expect(client.running()).toBe(8);
  });

  it('never names maintenance as a call', () => {
    const worker = new CallGate();
    const client = new CallGate(worker.buffer);
    worker.enter(MAINTENANCE_ID);
    expect(client.running()).toBeNull();
    worker.leave(MAINTENANCE_ID);
    worker.enter(4);
    expect(client.running()).toBe(4);
  });
});
