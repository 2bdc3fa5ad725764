/**
 * The grid's column layout a person chose for a resource: widths, order and how many
 * columns stay in view when scrolling sideways. Kept in localStorage per resource, so it
 * survives a reload and a new session; never sent to the server.
 */
import type { DatastoreField, DatastoreRecord } from '../../../../shared/wire/search';
import { columnWidth } from './columns';

export interface ColumnLayout {
  readonly widths: Readonly<Record<string, number>>;
  readonly order: readonly string[];
  /** Columns after `_id` that stay in view (0 = only the row number). */
  readonly frozen: number;
}

export const EMPTY_LAYOUT: ColumnLayout = { widths: {}, order: [], frozen: 0 };
export const MIN_WIDTH = 48;
export const MAX_WIDTH = 1200;
const key = (resourceId: string) => `deskstore.layout.${resourceId}`;

export function loadLayout(resourceId: string): ColumnLayout {
  try {
    const raw = JSON.parse(window.localStorage.getItem(key(resourceId)) ?? 'null') as Partial<ColumnLayout> | null;
    if (!raw || typeof raw !== 'object') return EMPTY_LAYOUT;
    const widths = Object.fromEntries(Object.entries(raw.widths ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number'));
    const order = Array.isArray(raw.order) ? raw.order.filter((x): x is string => typeof x === 'string') : [];
    return { widths, order, frozen: typeof raw.frozen === 'number' && raw.frozen >= 0 ? Math.floor(raw.frozen) : 0 };
  } catch {
    return EMPTY_LAYOUT;
  }
}

export function saveLayout(resourceId: string, layout: ColumnLayout): void {
  try {
    window.localStorage.setItem(key(resourceId), JSON.stringify(layout));
  } catch {
    // storage full or disabled: the layout lasts for this page only
  }
}

/** Fields in the chosen order: `_id` first, known ids as ordered, new columns where they were. */
export function orderFields(fields: readonly DatastoreField[], order: readonly string[]): DatastoreField[] {
  if (!order.length) return [...fields];
  const rank = new Map(order.map((id, i) => [id, i]));
  const natural = new Map(fields.map((f, i) => [f.id, i]));
  return [...fields].sort((a, b) => {
    if (a.id === '_id' || b.id === '_id') return a.id === '_id' ? -1 : 1;
    const ra = rank.get(a.id) ?? natural.get(a.id)! + order.length;
    const rb = rank.get(b.id) ?? natural.get(b.id)! + order.length;
    return ra - rb;
  });
}

/** Moves `id` to where `target` is (before it when moving left, after it when moving right). */
export function moveColumn(ids: readonly string[], id: string, target: string): string[] {
  const from = ids.indexOf(id);
  const to = ids.indexOf(target);
  if (from < 0 || to < 0 || from === to || id === '_id' || target === '_id') return [...ids];
  const out = ids.filter((x) => x !== id);
  out.splice(to, 0, id);
  return out;
}

export function columnWidths(fields: readonly DatastoreField[], sample: readonly DatastoreRecord[], layout: ColumnLayout): number[] {
  return fields.map((f) => layout.widths[f.id] ?? columnWidth(f, sample));
}

/** Left offset of each column (for the sticky frozen ones). */
export function leftOffsets(widths: readonly number[]): number[] {
  const out: number[] = [];
  let x = 0;
  for (const w of widths) {
    out.push(x);
    x += w;
  }
  return out;
}
