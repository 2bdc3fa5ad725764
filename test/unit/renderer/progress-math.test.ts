import { describe, expect, it } from 'vitest';
import type { ImportJobStatus } from '../../../src/shared/wire/import';
import { addSample, importProgress } from '../../../src/renderer/src/features/import/progress-math';

const status = (over: Partial<ImportJobStatus>): ImportJobStatus => ({
  job_id: 'j',
  resource_id: 'r',
  status: 'running',
  phase: 'reading',
  rows_done: 0,
  bytes_done: 0,
  bytes_total: 1000,
  last_updated: null,
  error: null,
  ...over,
});

describe('import progress', () => {
  it('reading fills 80 % of the bar by bytes; later phases are steps; complete is full', () => {
    expect(importProgress(status({ bytes_done: 500 }), []).fraction).toBeCloseTo(0.4);
    expect(importProgress(status({ phase: 'indexing', bytes_done: 1000 }), []).fraction).toBeCloseTo(0.85);
    expect(importProgress(status({ status: 'complete', phase: 'done' }), []).fraction).toBe(1);
    expect(importProgress(status({ phase: 'queued', bytes_total: 0 }), []).fraction).toBe(0);
  });

  it('rate over recent samples and time left from the byte rate', () => {
    let samples = addSample([], { at: 0, rows: 0, bytes: 0 });
    samples = addSample(samples, { at: 1000, rows: 5000, bytes: 250 });
    const view = importProgress(status({ rows_done: 5000, bytes_done: 250 }), samples);
    expect(view.rowsPerSecond).toBeCloseTo(5000);
    expect(view.secondsLeft).toBeCloseTo(3);
    expect(view.searchable).toBe(false);
  });

  it('no rate from one sample; no time left after reading; searchable once storing', () => {
    const one = addSample([], { at: 0, rows: 10, bytes: 10 });
    expect(importProgress(status({}), one).rowsPerSecond).toBeNull();
    const storing = importProgress(status({ phase: 'storing', bytes_done: 1000 }), one);
    expect(storing.secondsLeft).toBeNull();
    expect(storing.searchable).toBe(true);
  });

  it('a cancelled or failed import stays where it stopped: not a full bar, nothing done', () => {
    const before = status({ phase: 'reading', bytes_done: 250, rows_done: 5000 });
    const cancelled = importProgress(status({ status: 'cancelled', phase: 'done', bytes_done: 250, rows_done: 5000 }), [], before);
    expect(cancelled.fraction).toBeCloseTo(0.2);
    expect(cancelled.stopped).toBe(true);
    expect(cancelled.stoppedIn).toBe('reading');
    expect(cancelled.rows).toBe(5000);
    expect(cancelled.secondsLeft).toBeNull();
    // opened after the end: where it stopped is not known, and the bar is empty rather than full
    const failed = importProgress(status({ status: 'error', phase: 'done' }), []);
    expect(failed).toMatchObject({ fraction: 0, stopped: true, stoppedIn: null, finished: true });
  });

  it('keeps only recent samples', () => {
    let samples = addSample([], { at: 0, rows: 0, bytes: 0 });
    samples = addSample(samples, { at: 10_000, rows: 1, bytes: 1 });
    expect(samples).toHaveLength(1);
  });
});
