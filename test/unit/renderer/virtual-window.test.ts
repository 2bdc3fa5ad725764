import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_PX, computeWindow, rowOffset, scrollTopForRow } from '../../../src/renderer/src/features/table/virtual-window';

const base = { rowHeight: 32, viewportHeight: 640, overscan: 5 };

describe('virtual window', () => {
  it('small tables: natural height, rows at index × height', () => {
    const w = computeWindow({ ...base, rowCount: 7901, scrollTop: 3200 });
    expect(w.scaled).toBe(false);
    expect(w.contentHeight).toBe(7901 * 32);
    expect(w.topRow).toBe(100);
    expect(w.first).toBe(95);
    expect(w.last).toBe(125);
    expect(rowOffset(100, w, 3200, 32)).toBe(3200);
  });

  it('an empty table renders nothing', () => {
    const w = computeWindow({ ...base, rowCount: 0, scrollTop: 0 });
    expect(w.last).toBeLessThan(w.first);
  });

  it('millions of rows: height capped, first and last pixel reach the first and last row', () => {
    const rowCount = 10_000_000;
    const top = computeWindow({ ...base, rowCount, scrollTop: 0 });
    expect(top.scaled).toBe(true);
    expect(top.contentHeight).toBe(MAX_CONTENT_PX);
    expect(top.first).toBe(0);
    const maxScroll = MAX_CONTENT_PX - base.viewportHeight;
    const bottom = computeWindow({ ...base, rowCount, scrollTop: maxScroll });
    expect(bottom.last).toBe(rowCount - 1);
    // the row at the top of the viewport is drawn at the viewport's top
    expect(rowOffset(Math.floor(bottom.topRow), bottom, maxScroll, 32)).toBeLessThanOrEqual(maxScroll);
    expect(rowOffset(rowCount - 1, bottom, maxScroll, 32) + 32).toBeCloseTo(maxScroll + base.viewportHeight, 5);
    // a position in the middle maps proportionally and back
    const middle = scrollTopForRow(5_000_000, { rowCount, rowHeight: 32, viewportHeight: 640 });
    expect(computeWindow({ ...base, rowCount, scrollTop: middle }).topRow).toBeCloseTo(5_000_000, 3);
  });

  it('consecutive rows stay one row height apart when scaled', () => {
    const w = computeWindow({ ...base, rowCount: 3_000_000, scrollTop: 1_234_567 });
    expect(rowOffset(w.first + 1, w, 1_234_567, 32) - rowOffset(w.first, w, 1_234_567, 32)).toBeCloseTo(32, 6);
  });
});
