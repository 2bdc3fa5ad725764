import { arrayItems, objectMembers, skipSpace } from '../util/json-source';

/**
 * A portal's `datastore_search` / `datastore_search_sql` answer with its records kept as
 * source text (docs/portal.md, "Values"): the envelope is decoded as usual, but `records` is
 * left undecoded, so each cell can be copied as the portal wrote it (`310.00` stays `310.00`,
 * a JSON cell keeps its exact text) and never passes through a JavaScript number.
 */
export class RawRecords {
  constructor(
    readonly text: string,
    private readonly start: number,
    private readonly end: number,
  ) {}

  /** The records as rows of cell texts, in `columns` order (objects by key, lists by position). */
  rows(columns: readonly string[]): string[][] {
    const at = skipSpace(this.text, this.start);
    const { items } = arrayItems(this.text, at);
    return items.map(([from]) => {
      if (this.text.charCodeAt(from) === 91) {
        const cells = arrayItems(this.text, from).items.map(([a, b]) => this.text.slice(a, b));
        if (cells.length !== columns.length) throw new SyntaxError(`a record has ${cells.length} values for ${columns.length} columns`);
        return cells;
      }
      const byKey = new Map(objectMembers(this.text, from).members.map(([key, a, b]) => [key, this.text.slice(a, b)]));
      return columns.map((c) => byKey.get(c) ?? 'null');
    });
  }

  get sourceLength(): number {
    return this.end - this.start;
  }
}

/** A CKAN envelope whose `result.records`, when there is one, is a RawRecords. */
export function parseKeepingRecords(text: string): unknown {
  const top = objectMembers(text, skipSpace(text, 0)).members;
  const result = top.find(([key]) => key === 'result');
  if (!result || text.charCodeAt(result[1]) !== 123) return JSON.parse(text);
  const records = objectMembers(text, result[1]).members.find(([key]) => key === 'records');
  if (!records || text.charCodeAt(records[1]) !== 91) return JSON.parse(text);
  const envelope = JSON.parse(`${text.slice(0, records[1])}null${text.slice(records[2])}`) as { result: Record<string, unknown> };
  envelope.result.records = new RawRecords(text, records[1], records[2]);
  return envelope;
}
