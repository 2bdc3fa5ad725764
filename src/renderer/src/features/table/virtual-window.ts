/**
 * Which rows to render for a scroll position, for any number of rows. Browsers cap an
 * element's height (about 33 million px in Chromium, 17 million in Firefox), so a table
 * taller than MAX_CONTENT_PX gets a scrollbar of that height and scroll positions are mapped
 * proportionally onto rows: the first and last pixel still reach the first and last row,
 * and scrolling stays smooth row by row in between. (@tanstack/react-virtual assumes the
 * full height fits, which is why this small window function is used instead.) Pure.
 */
export const MAX_CONTENT_PX = 8_000_000;

export interface WindowInput {
  readonly rowCount: number;
  readonly rowHeight: number;
  /** Height available for rows (scroll viewport minus the sticky header). */
  readonly viewportHeight: number;
  readonly scrollTop: number;
  readonly overscan: number;
}

export interface WindowOutput {
  /** Height of the scrollable body. */
  readonly contentHeight: number;
  /** First and last row index to render (inclusive); last < first when there are no rows. */
  readonly first: number;
  readonly last: number;
  /** The fractional row index at the top of the viewport. */
  readonly topRow: number;
  readonly scaled: boolean;
}

export function contentHeightFor(rowCount: number, rowHeight: number): number {
  return Math.min(rowCount * rowHeight, MAX_CONTENT_PX);
}

export function computeWindow(input: WindowInput): WindowOutput {
  const { rowCount, rowHeight, overscan } = input;
  const viewportHeight = Math.max(0, input.viewportHeight);
  const naturalHeight = rowCount * rowHeight;
  const contentHeight = contentHeightFor(rowCount, rowHeight);
  const scaled = naturalHeight > contentHeight;
  const maxScroll = Math.max(0, contentHeight - viewportHeight);
  const scrollTop = Math.max(0, Math.min(input.scrollTop, maxScroll));
  const visibleRows = viewportHeight / rowHeight;
  const topRow = scaled && maxScroll > 0 ? (scrollTop / maxScroll) * Math.max(0, rowCount - visibleRows) : scrollTop / rowHeight;
  const first = Math.max(0, Math.floor(topRow) - overscan);
  const last = Math.min(rowCount - 1, Math.ceil(topRow + visibleRows) + overscan);
  return { contentHeight, first, last, topRow, scaled };
}

/** Where row `index` goes, in px from the top of the scrollable body. */
export function rowOffset(index: number, window: WindowOutput, scrollTop: number, rowHeight: number): number {
  if (!window.scaled) return index * rowHeight;
  return scrollTop + (index - window.topRow) * rowHeight;
}

/** The scroll position that shows row `index` at the top. */
export function scrollTopForRow(index: number, input: Omit<WindowInput, 'scrollTop' | 'overscan'>): number {
  const contentHeight = contentHeightFor(input.rowCount, input.rowHeight);
  if (input.rowCount * input.rowHeight <= contentHeight) return index * input.rowHeight;
  const maxScroll = Math.max(0, contentHeight - input.viewportHeight);
  const span = Math.max(1, input.rowCount - input.viewportHeight / input.rowHeight);
  return (index / span) * maxScroll;
}
