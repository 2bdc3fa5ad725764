import { ValidationError, invalid, withMessage } from '../../errors';
import { message } from '../../../shared/messages';

/**
 * `filters` (docs/ckan-contract.md §3.3): CKAN 2.11's `{column: value | [values]}` plus 2.12's operator
 * objects, mixed lists, `$or`/`$and` and top-level lists. Parsed into a small tree; values
 * stay as sent and are coerced to the column type later.
 *
 * Deskstore adds four operators in 2.12's operator-object syntax, prefixed so that no CKAN
 * operator can ever collide with them (docs/views.md, "Conditions"):
 * `deskstore_ne` (SQL `<>`: NULL matches neither = nor ≠), `deskstore_contains` and
 * `deskstore_starts_with` (text, ignoring case and accents) and `deskstore_empty`
 * (true: NULL, or '' in a text column; false: the opposite).
 */
export type CkanOperator = 'eq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';
export type DeskstoreOperator = 'deskstore_ne' | 'deskstore_contains' | 'deskstore_starts_with' | 'deskstore_empty';
export type FilterOperator = CkanOperator | DeskstoreOperator;

export type FilterNode =
  | { readonly kind: 'and' | 'or'; readonly items: readonly FilterNode[] }
  | { readonly kind: 'match'; readonly column: string; readonly op: FilterOperator; readonly value: unknown };

const OPERATORS = new Set<string>([
  'eq',
  'in',
  'gt',
  'gte',
  'lt',
  'lte',
  'deskstore_ne',
  'deskstore_contains',
  'deskstore_starts_with',
  'deskstore_empty',
]);
// 2.12's limits: they keep a hostile request from building an enormous plan.
const MAX_OPERATIONS = 100;
const MAX_DEPTH = 10;

export interface FilterColumns {
  has(column: string): boolean;
  /** Array columns compare a list value as one whole array, not as IN. */
  isArray(column: string): boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

class FilterParser {
  private operations = 0;
  constructor(private readonly columns: FilterColumns) {}

  parse(value: unknown, depth = 0): FilterNode {
    if (depth > MAX_DEPTH) throw invalid('filters', `Filters nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      return { kind: 'or', items: value.map((item) => this.parseObject(item, depth + 1)) };
    }
    return this.parseObject(value, depth);
  }

  private parseObject(value: unknown, depth: number): FilterNode {
    if (!isPlainObject(value)) throw invalid('filters', 'filters must be either a dict or a list of dicts');
    const items: FilterNode[] = [];
    for (const [key, v] of Object.entries(value)) {
      if (key === '$or' || key === '$and') {
        if (!Array.isArray(v)) throw invalid('filters', `${key} needs a list of filter objects`);
        items.push({ kind: key === '$or' ? 'or' : 'and', items: v.map((item) => this.parseObject(item, depth + 1)) });
      } else if (key.startsWith('$') && !key.startsWith('$$')) {
        throw invalid('filters', `Unknown filter operation: ${key}`);
      } else {
        items.push(this.parseColumn(key.startsWith('$$') ? key.slice(1) : key, v));
      }
    }
    return { kind: 'and', items };
  }

  private parseColumn(column: string, value: unknown): FilterNode {
    // 2.11 reports an unknown column with its own wording (2.12: "Unknown field: x").
    if (!this.columns.has(column)) throw new ValidationError({ filters: [`invalid value "${column}"`] });
    if (Array.isArray(value) && !this.columns.isArray(column)) {
      const scalars = value.filter((v) => !isPlainObject(v));
      const operatorObjects = value.filter(isPlainObject);
      const alternatives: FilterNode[] = operatorObjects.map((o) => this.parseOperators(column, o));
      if (scalars.length || !operatorObjects.length) alternatives.unshift(this.match(column, 'in', scalars));
      return alternatives.length === 1 ? alternatives[0]! : { kind: 'or', items: alternatives };
    }
    if (isPlainObject(value)) return this.parseOperators(column, value);
    return this.match(column, 'eq', value);
  }

  private parseOperators(column: string, ops: Record<string, unknown>): FilterNode {
    const items: FilterNode[] = [];
    for (const [op, v] of Object.entries(ops)) {
      if (!OPERATORS.has(op)) throw invalid('filters', `Unknown filter operation: ${op}`);
      if (op === 'in' && !Array.isArray(v)) throw invalid('filters', `"in" needs a list of values`);
      if ((op === 'deskstore_contains' || op === 'deskstore_starts_with') && typeof v !== 'string') {
        throw invalid('filters', `"${op}" needs a text value`);
      }
      if (op === 'deskstore_empty' && typeof v !== 'boolean') {
        throw withMessage(
          invalid('filters', '"deskstore_empty" needs true or false'),
          message('filters.empty_needs_boolean', 'The "empty" filter needs true or false.', { column }),
        );
      }
      items.push(this.match(column, op as FilterOperator, v));
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private match(column: string, op: FilterOperator, value: unknown): FilterNode {
    if (++this.operations > MAX_OPERATIONS) throw invalid('filters', `More than ${MAX_OPERATIONS} filter operations`);
    return { kind: 'match', column, op, value };
  }
}

/** The columns a filter may name on a table with these fields (`_id` included). */
export function filterColumnsOf(fields: readonly { readonly id: string; readonly type: { readonly storage: string } }[]): FilterColumns {
  const ids = new Set(['_id', ...fields.map((f) => f.id)]);
  const arrays = new Set(fields.filter((f) => f.type.storage === 'array').map((f) => f.id));
  return { has: (c) => ids.has(c), isArray: (c) => arrays.has(c) };
}

/** Parses `filters`; throws CKAN's validation errors (unknown column, unknown operator, limits). */
export function parseFilters(value: unknown, columns: FilterColumns): FilterNode {
  return new FilterParser(columns).parse(value);
}
