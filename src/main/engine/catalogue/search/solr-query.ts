import lucene, { type AST, type Node, type NodeRangedTerm, type NodeTerm } from 'lucene';
import { SearchError } from '../../../errors';
import { fieldKind, timestampOf, type PackageDocument } from './package-document';
import { queryTerms, stringWildcard, wildcardPattern } from './solr-analysis';

/**
 * The Solr query subset package_search scripts use (docs/ckan-contract.md §10.4), parsed with
 * the `lucene` package: `field:value`, quoted phrases, `AND`/`OR`/`NOT`/`+`/`-`, parentheses
 * and field groups (`tags:(a OR b)`), `*` wildcards, ranges `[a TO b]`/`{a TO b}` (dates with
 * `NOW`, `NOW-1YEAR`, `NOW/DAY`, `*`). A query becomes a function scoring one document, or
 * null when the document does not match.
 */
export type Matcher = (doc: PackageDocument) => number | null;

/** A field and its weight: `text` alone for the standard parser, `qf` for dismax. */
export interface WeightedField {
  readonly field: string;
  readonly boost: number;
}

/** CKAN's QUERY_FIELDS for a `q` without a colon: `name^4 title^4 tags^2 groups^2 text`. */
export const DISMAX_FIELDS: readonly WeightedField[] = [
  { field: 'name', boost: 4 },
  { field: 'title', boost: 4 },
  { field: 'tags', boost: 2 },
  { field: 'groups', boost: 2 },
  { field: 'text', boost: 1 },
];

const hasWildcard = (term: string): boolean => /(?<!\\)[*?]/.test(term);
const unescape = (term: string): string => term.replace(/\\(.)/g, '$1');

function phraseScore(terms: readonly { term: string; position: number }[], wanted: readonly string[]): number {
  if (!wanted.length) return 0;
  const positions = new Map<string, number[]>();
  for (const t of terms) positions.set(t.term, [...(positions.get(t.term) ?? []), t.position]);
  const starts = positions.get(wanted[0]!) ?? [];
  return starts.filter((p) => wanted.every((w, i) => positions.get(w)?.includes(p + i))).length;
}

/** How often a term (or phrase, or wildcard) occurs in one field of a document. */
function termScore(doc: PackageDocument, field: string, node: NodeTerm): number {
  const raw = node.quoted ? node.term : unescape(node.term);
  const wildcard = !node.quoted && hasWildcard(node.term);
  switch (fieldKind(field)) {
    case 'string': {
      const values = doc.strings.get(field) ?? [];
      if (wildcard) {
        const re = stringWildcard(node.term.replace(/\\(.)/g, '$1'));
        return values.filter((v) => re.test(v)).length;
      }
      return values.filter((v) => v === raw).length;
    }
    case 'text': {
      const terms = doc.texts.get(field) ?? [];
      if (wildcard) {
        const re = wildcardPattern(raw);
        return terms.filter((t) => re.test(t.term)).length;
      }
      return phraseScore(terms, queryTerms(raw));
    }
    case 'date': {
      const t = doc.dates.get(field);
      return t !== undefined && t === timestampOf(raw) ? 1 : 0;
    }
    case 'number':
      return doc.numbers.get(field) === Number(raw) ? 1 : 0;
  }
}

const UNIT_MS: Readonly<Record<string, number>> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 7 * 86_400_000,
};

/** Solr's date math on `NOW` (NOW-1YEAR, NOW+2DAYS/DAY) or an ISO date; null for `*`. */
export function solrDate(text: string, now = Date.now()): number | null {
  if (text === '*') return null;
  const m = /^NOW((?:[+-]\d+[A-Z]+)*)(\/[A-Z]+)?$/.exec(text);
  if (!m) {
    const t = timestampOf(text);
    if (t === null) throw new SearchError(`Invalid Date String:'${text}'`);
    return t;
  }
  const d = new Date(now);
  for (const [, sign, amount, unit] of m[1]!.matchAll(/([+-])(\d+)([A-Z]+?)S?(?=[+-]|$)/g)) {
    const n = Number(amount) * (sign === '-' ? -1 : 1);
    if (unit === 'YEAR') d.setUTCFullYear(d.getUTCFullYear() + n);
    else if (unit === 'MONTH') d.setUTCMonth(d.getUTCMonth() + n);
    else if (UNIT_MS[unit!]) d.setTime(d.getTime() + n * UNIT_MS[unit!]!);
    else throw new SearchError(`Invalid Date Math String:'${text}'`);
  }
  switch (m[2]?.slice(1)) {
    case 'YEAR':
      d.setUTCMonth(0, 1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'MONTH':
      d.setUTCDate(1);
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'DAY':
      d.setUTCHours(0, 0, 0, 0);
      break;
    case 'HOUR':
      d.setUTCMinutes(0, 0, 0);
      break;
    case 'MINUTE':
      d.setUTCSeconds(0, 0);
      break;
  }
  return d.getTime();
}

function rangeMatches(doc: PackageDocument, node: NodeRangedTerm): boolean {
  const lowOpen = node.inclusive === 'none' || node.inclusive === 'right';
  const highOpen = node.inclusive === 'none' || node.inclusive === 'left';
  const within = <T extends number | string>(v: T, lo: T | null, hi: T | null): boolean =>
    (lo === null || (lowOpen ? v > lo : v >= lo)) && (hi === null || (highOpen ? v < hi : v <= hi));
  const kind = fieldKind(node.field);
  if (kind === 'date') {
    const t = doc.dates.get(node.field);
    return t !== undefined && within(t, solrDate(node.term_min), solrDate(node.term_max));
  }
  if (kind === 'number') {
    const n = doc.numbers.get(node.field);
    const bound = (s: string) => (s === '*' ? null : Number(s));
    return n !== undefined && within(n, bound(node.term_min), bound(node.term_max));
  }
  const bound = (s: string) => (s === '*' ? null : unescape(s));
  const values = kind === 'text' ? (doc.texts.get(node.field) ?? []).map((t) => t.term) : (doc.strings.get(node.field) ?? []);
  return values.some((v) => within(v, bound(node.term_min), bound(node.term_max)));
}

const isNode = (x: AST | Node): x is Node => 'term' in x || 'term_min' in x;

/** `-field:x` reaches us with the sign inside the field name. */
function splitSign(field: string): { sign: string | null; field: string } {
  return /^[+-]/.test(field) ? { sign: field[0]!, field: field.slice(1) } : { sign: null, field };
}

type Clause = { readonly occur: 'must' | 'should' | 'not'; readonly match: Matcher };

class Compiler {
  constructor(private readonly defaults: readonly WeightedField[]) {}

  compile(ast: AST | Node, inherited: string | null = null): { match: Matcher; sign: string | null } {
    if (isNode(ast)) return this.leaf(ast, inherited);
    const field = ast.field && ast.field !== '<implicit>' ? splitSign(ast.field) : null;
    const scope = field ? field.field : inherited;
    return { match: this.sequence(this.flatten(ast), scope), sign: field?.sign ?? null };
  }

  private leaf(node: Node, inherited: string | null): { match: Matcher; sign: string | null } {
    const { sign: fieldSign, field: named } = splitSign(node.field);
    const field = named === '<implicit>' ? inherited : named;
    const sign = ('prefix' in node ? node.prefix : null) ?? fieldSign;
    if ('term_min' in node) {
      const range = { ...node, field: field ?? 'text' };
      return { match: (doc) => (rangeMatches(doc, range) ? 1 : null), sign };
    }
    if (field === '*' && node.term === '*') return { match: () => 1, sign };
    const fields = field ? [{ field, boost: 1 }] : this.defaults;
    return {
      sign,
      match: (doc) => {
        // Several fields (dismax): the best field counts, plus a tenth of the others (tie 0.1).
        const scores = fields.map((f) => termScore(doc, f.field, node) * f.boost).filter((s) => s > 0);
        if (!scores.length) return null;
        const best = Math.max(...scores);
        return best + 0.1 * (scores.reduce((a, b) => a + b, 0) - best);
      },
    };
  }

  /** lucene's right-leaning chain `a OP b OP c`, as clauses with their operators. */
  private flatten(ast: AST): { operator: string; node: AST | Node }[] {
    const items: { operator: string; node: AST | Node }[] = [
      { operator: 'start' in ast && ast.start ? ast.start : '<implicit>', node: ast.left },
    ];
    let rest: AST | Node | undefined = 'right' in ast ? ast.right : undefined;
    let operator = 'operator' in ast ? ast.operator : '<implicit>';
    while (rest) {
      if (!isNode(rest) && !rest.parenthesized && !rest.field && 'right' in rest) {
        items.push({ operator, node: rest.left });
        operator = rest.operator;
        rest = rest.right;
      } else {
        items.push({ operator, node: rest });
        rest = undefined;
      }
    }
    return items;
  }

  /**
   * Clauses joined the usual way: NOT and `-` exclude, `+` requires, AND binds tighter than OR,
   * and a missing operator is AND (CKAN's `q.op=AND`).
   */
  private sequence(items: { operator: string; node: AST | Node }[], scope: string | null): Matcher {
    const groups: Clause[][] = [[]];
    for (const { operator, node } of items) {
      const { match, sign } = this.compile(node, scope);
      if (operator === 'OR' || operator === 'OR NOT') groups.push([]);
      const negated = operator.endsWith('NOT') || sign === '-';
      groups.at(-1)!.push({ occur: negated ? 'not' : 'must', match });
    }
    const conjunction =
      (clauses: Clause[]): Matcher =>
      (doc) => {
        let score = 0;
        for (const c of clauses) {
          const s = c.match(doc);
          if (c.occur === 'not' ? s !== null : s === null) return null;
          if (s !== null) score += s;
        }
        // A group of only exclusions matches everything else, as Solr's pure-negative queries do.
        return clauses.every((c) => c.occur === 'not') ? 1 : score;
      };
    const alternatives = groups.filter((g) => g.length).map(conjunction);
    return (doc) => {
      let score: number | null = null;
      for (const alt of alternatives) {
        const s = alt(doc);
        if (s !== null) score = (score ?? 0) + s;
      }
      return score;
    };
  }
}

function parse(query: string): AST {
  try {
    return lucene.parse(query);
  } catch (err) {
    throw new SearchError(`SOLR returned an error running query: ${JSON.stringify(query)} Error: ${(err as Error).message}`);
  }
}

/** The standard Lucene parser, as Solr runs `fq` and a `q` with a colon (default field `text`). */
export function compileLucene(query: string): Matcher {
  return new Compiler([{ field: 'text', boost: 1 }]).compile(parse(query)).match;
}

/**
 * Dismax, as CKAN runs a `q` without a colon: every word searched in `qf`, quoted phrases,
 * `+`/`-`, and the minimum-should-match `2<-1 5<80%` (up to two words all must match, up to
 * five all but one, more than five 80%).
 */
export function compileDismax(query: string): Matcher {
  const words = query.match(/[+-]?"[^"]*"|\S+/g) ?? [];
  const compiler = new Compiler(DISMAX_FIELDS);
  const clauses = words.map((word) => {
    const sign = /^[+-]/.test(word) ? word[0]! : null;
    const body = sign ? word.slice(1) : word;
    const quoted = body.startsWith('"') && body.endsWith('"') && body.length > 1;
    const term = quoted ? body.slice(1, -1) : body;
    const node: NodeTerm = {
      field: '<implicit>',
      fieldLocation: null,
      term,
      quoted,
      regex: false,
      prefix: null,
      boost: null,
      similarity: null,
      termLocation: { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
    };
    return { sign, match: compiler.compile(node).match };
  });
  const optional = clauses.filter((c) => c.sign === null);
  const n = optional.length;
  const needed = n <= 2 ? n : n <= 5 ? n - 1 : Math.floor(n * 0.8);
  return (doc) => {
    let score = 0;
    for (const c of clauses) {
      if (c.sign === null) continue;
      const s = c.match(doc);
      if (c.sign === '-' ? s !== null : s === null) return null;
      score += s ?? 0;
    }
    let matched = 0;
    for (const c of optional) {
      const s = c.match(doc);
      if (s !== null) {
        matched++;
        score += s;
      }
    }
    if (matched < needed) return null;
    return clauses.length ? score : 1;
  };
}
