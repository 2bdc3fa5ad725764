/**
 * The grid's cursor and selection: an active cell and an anchor, the rectangle between them
 * selected. Pure functions of key presses, so they are unit-tested without a DOM.
 */
export interface CellPos {
  readonly row: number;
  readonly col: number;
}

export interface Selection {
  readonly active: CellPos;
  readonly anchor: CellPos;
}

export interface GridSize {
  readonly rows: number;
  readonly cols: number;
  /** Rows in one screenful (Page Up/Down). */
  readonly page: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** The selection after a navigation key, or null when the key is not one. */
export function moveSelection(sel: Selection, key: string, size: GridSize, modifiers: { shift: boolean; ctrl: boolean }): Selection | null {
  const { row, col } = sel.active;
  let next: CellPos;
  switch (key) {
    case 'ArrowDown':
      next = { row: row + 1, col };
      break;
    case 'ArrowUp':
      next = { row: row - 1, col };
      break;
    case 'ArrowRight':
      next = { row, col: col + 1 };
      break;
    case 'ArrowLeft':
      next = { row, col: col - 1 };
      break;
    case 'PageDown':
      next = { row: row + size.page, col };
      break;
    case 'PageUp':
      next = { row: row - size.page, col };
      break;
    case 'Home':
      next = modifiers.ctrl ? { row: 0, col: 0 } : { row, col: 0 };
      break;
    case 'End':
      next = modifiers.ctrl ? { row: size.rows - 1, col: size.cols - 1 } : { row, col: size.cols - 1 };
      break;
    default:
      return null;
  }
  const active = { row: clamp(next.row, 0, Math.max(0, size.rows - 1)), col: clamp(next.col, 0, Math.max(0, size.cols - 1)) };
  return { active, anchor: modifiers.shift ? sel.anchor : active };
}

export function selectionBounds(sel: Selection): { top: number; bottom: number; left: number; right: number } {
  return {
    top: Math.min(sel.active.row, sel.anchor.row),
    bottom: Math.max(sel.active.row, sel.anchor.row),
    left: Math.min(sel.active.col, sel.anchor.col),
    right: Math.max(sel.active.col, sel.anchor.col),
  };
}

export function isSelected(sel: Selection | null, row: number, col: number): boolean {
  if (!sel) return false;
  const b = selectionBounds(sel);
  return row >= b.top && row <= b.bottom && col >= b.left && col <= b.right;
}
