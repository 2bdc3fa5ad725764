/**
 * Conditions on columns (=, ≠, >, ≥, <, ≤, between, contains, starts with, empty, not empty)
 * and how they become `filters`: CKAN 2.11's plain value for `=`, 2.12's operator objects for
 * ranges, Deskstore's `deskstore_*` operators for the rest (docs/views.md, "Conditions"), so
 * the API panel shows a call a CKAN portal accepts whenever the conditions allow it. Pure.
 */
import { isDateType, isNumericType } from '../../format/cell';

export const CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'contains', 'starts_with', 'empty', 'not_empty'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export interface Condition {
  readonly field: string;
  readonly op: ConditionOp;
  readonly value: string;
  /** The upper bound of `between`. */
  readonly value2: string;
}

/** Conditions a CKAN portal would not understand (its DataStore has no such operator). */
export const DESKSTORE_ONLY: ReadonlySet<ConditionOp> = new Set(['ne', 'contains', 'starts_with', 'empty', 'not_empty']);

const NO_VALUE: ReadonlySet<ConditionOp> = new Set(['empty', 'not_empty']);

export function needsValue(op: ConditionOp): boolean {
  return !NO_VALUE.has(op);
}

/** The operators that make sense for a column type, in menu order. */
export function operatorsFor(type: string): ConditionOp[] {
  if (isNumericType(type) || isDateType(type)) return ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'not_empty'];
  if (type === 'bool') return ['eq', 'ne', 'empty', 'not_empty'];
  return ['eq', 'ne', 'contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'];
}

export function isComplete(c: Condition): boolean {
  if (!needsValue(c.op)) return true;
  if (c.op === 'between') return c.value.trim() !== '' && c.value2.trim() !== '';
  // contains / starts with '' would match everything: not a condition yet
  return c.value.trim() !== '';
}

const isOp = (v: unknown): v is ConditionOp => typeof v === 'string' && (CONDITION_OPS as readonly string[]).includes(v);

export function conditionsFromParam(text: string | null): Condition[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown): Condition[] => {
    if (!Array.isArray(item)) return [];
    const [field, op, value = '', value2 = ''] = item as unknown[];
    if (typeof field !== 'string' || !isOp(op) || typeof value !== 'string' || typeof value2 !== 'string') return [];
    return [{ field, op, value, value2 }];
  });
}

/** Compact in the URL: `[["regione","ne","Lazio"],["data","between","2020-01-01","2020-12-31"]]`. */
export function conditionsToParam(conditions: readonly Condition[]): string {
  return JSON.stringify(
    conditions.map((c) =>
      c.op === 'between' ? [c.field, c.op, c.value, c.value2] : needsValue(c.op) ? [c.field, c.op, c.value] : [c.field, c.op],
    ),
  );
}

const OPERATOR: Partial<Record<ConditionOp, string>> = {
  ne: 'deskstore_ne',
  gt: 'gt',
  gte: 'gte',
  lt: 'lt',
  lte: 'lte',
  contains: 'deskstore_contains',
  starts_with: 'deskstore_starts_with',
};

/** One condition as the value of its column in `filters`. */
export function conditionValue(c: Condition): unknown {
  if (c.op === 'eq') return c.value.trim();
  if (c.op === 'between') return { gte: c.value.trim(), lte: c.value2.trim() };
  if (c.op === 'empty' || c.op === 'not_empty') return { deskstore_empty: c.op === 'empty' };
  const text = c.op === 'contains' || c.op === 'starts_with' ? c.value : c.value.trim();
  return { [OPERATOR[c.op]!]: text };
}

const isOperatorObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Value filters plus complete conditions, as one `filters` object: a column's conditions
 * join its operator object when they do not collide, anything else goes into `$and`.
 */
export function mergeConditions(filters: Readonly<Record<string, unknown>>, conditions: readonly Condition[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...filters };
  const extra: Record<string, unknown>[] = [];
  for (const c of conditions) {
    if (!isComplete(c)) continue;
    const value = conditionValue(c);
    const existing = out[c.field];
    if (existing === undefined) out[c.field] = value;
    else if (isOperatorObject(existing) && isOperatorObject(value) && Object.keys(value).every((k) => !(k in existing))) {
      out[c.field] = { ...existing, ...value };
    } else extra.push({ [c.field]: value });
  }
  if (extra.length) out.$and = extra;
  return out;
}
