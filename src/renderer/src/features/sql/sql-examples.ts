/**
 * Example queries built from a resource's columns, in PostgreSQL a CKAN portal accepts too (only
 * allowed functions; `::text` rather than `CAST(…)`, which CKAN's checks refuse). Pure.
 */
import type { DatastoreField } from '../../../../shared/wire/search';
import { isDateType, isNumericType } from '../../format/cell';

export const quoteSqlName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export interface SqlExample {
  /** i18n key under `sql.example.` */
  readonly key: 'all' | 'count' | 'range' | 'byYear' | 'startsWith';
  readonly sql: string;
}

export function sqlExamples(resourceId: string, fields: readonly DatastoreField[]): SqlExample[] {
  const table = quoteSqlName(resourceId);
  const columns = fields.filter((f) => f.id !== '_id');
  const text = columns.find((f) => f.type === 'text');
  const number = columns.find((f) => isNumericType(f.type));
  const date = columns.find((f) => isDateType(f.type));
  const out: SqlExample[] = [{ key: 'all', sql: `SELECT * FROM ${table} LIMIT 100` }];
  if (text) {
    const c = quoteSqlName(text.id);
    out.push({ key: 'count', sql: `SELECT ${c}, count(*) AS "count"\nFROM ${table}\nGROUP BY 1\nORDER BY 2 DESC\nLIMIT 20` });
  }
  if (number) {
    const c = quoteSqlName(number.id);
    out.push({
      key: 'range',
      sql: `SELECT min(${c}) AS "min", max(${c}) AS "max", avg(${c}) AS "mean", count(${c}) AS "values"\nFROM ${table}`,
    });
  }
  if (date) {
    const c = quoteSqlName(date.id);
    out.push({
      key: 'byYear',
      sql: `SELECT substr(${c}::text, 1, 4) AS "year", count(*) AS "count"\nFROM ${table}\nGROUP BY 1\nORDER BY 1`,
    });
  }
  if (text) {
    const c = quoteSqlName(text.id);
    out.push({ key: 'startsWith', sql: `SELECT *\nFROM ${table}\nWHERE ${c} LIKE 'A%'\nORDER BY ${c}\nLIMIT 100` });
  }
  return out;
}
