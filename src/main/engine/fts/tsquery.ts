// tsquery: plainto_tsquery and to_tsquery of PostgreSQL for the configurations of
// text-search-config.ts. Operands are normalised with the same configuration as documents:
// a stop word disappears (`the & cat` -> `cat`), and an operand that yields several lexemes
// becomes a phrase of them (to_tsquery, `Emilia-Romagna` -> 'emilia-romagna' <-> 'emilia' <->
// 'romagna') or an AND (plainto_tsquery), with the distance gaps of removed stop words.

import { type TextSearchLanguage, plainQueryLexemes, tokenizeDocument } from './text-search-config';
import { TsQuerySyntaxError, parseTsQueryTree } from './tsquery-parser';
import { type QNode, STOP, cleanStopWords, joinPhrase, treeDepth } from './tsquery-tree';

export { TsQuerySyntaxError };

export type TsQuery =
  | { type: 'term'; lexeme: string; prefix: boolean }
  | { type: 'and' | 'or'; items: TsQuery[] }
  | { type: 'not'; item: TsQuery }
  | { type: 'phrase'; items: TsQuery[]; distance: number } // ((a <d> b) <d> c): left-associative
  | { type: 'empty' }; // all stop words: matches nothing

/** Longest to_tsquery text accepted; real queries are far shorter. */
export const MAX_QUERY_LENGTH = 65_536;
/** Longest plainto_tsquery text accepted (it is parsed in linear time, so the bound is loose). */
export const MAX_PLAIN_QUERY_LENGTH = 1_048_576;
/** Deepest operator tree accepted (parentheses, NOT chains, phrase distance changes). */
export const MAX_QUERY_DEPTH = 256;

const EMPTY: TsQuery = { type: 'empty' };

/** pushval_morph for to_tsquery: the operand's lexemes joined by <->, with stop-word
 * placeholders where removed words left a gap between two lexemes. */
function morphOperand(text: string, language: TextSearchLanguage, prefix: boolean): QNode {
  const { lexemes, positions } = tokenizeDocument(text, language);
  if (lexemes.length === 0) return STOP;
  let acc: QNode | null = null;
  let pos = 0;
  const append = (item: QNode): void => {
    acc = acc === null ? item : joinPhrase(acc, item, 1);
  };
  for (let i = 0; i < lexemes.length; i++) {
    const wordPos = positions[i]!;
    if (pos > 0)
      while (pos + 1 < wordPos) {
        append(STOP);
        pos++;
      }
    pos = wordPos;
    append({ k: 'val', lexeme: lexemes[i]!, prefix });
  }
  return acc!;
}

function toPublic(node: QNode): TsQuery {
  switch (node.k) {
    case 'val':
      return { type: 'term', lexeme: node.lexeme, prefix: node.prefix };
    case 'not':
      return { type: 'not', item: toPublic(node.c) };
    case 'and':
    case 'or':
      return { type: node.k, items: node.items.map(toPublic) };
    case 'phrase':
      return { type: 'phrase', items: node.items.map(toPublic), distance: node.d };
    case 'stop':
      return EMPTY; // unreachable after cleanup
  }
}

function finish(tree: QNode | null): TsQuery {
  if (tree === null) return EMPTY;
  if (treeDepth(tree) > MAX_QUERY_DEPTH) {
    throw new TsQuerySyntaxError(`tsquery is too complex (nested deeper than ${MAX_QUERY_DEPTH} levels)`);
  }
  const cleaned = cleanStopWords(tree).node;
  return cleaned === null ? EMPTY : toPublic(cleaned);
}

/** plainto_tsquery: AND of the query's lexemes (no operators, no prefix matching). PostgreSQL
 * keeps repeated words (`'a' & 'a'`); dropping them changes neither matches nor ts_rank. */
export function plainToTsQuery(text: string, language: TextSearchLanguage): TsQuery {
  if (text.length > MAX_PLAIN_QUERY_LENGTH) {
    throw new TsQuerySyntaxError(`query is too long (${text.length} characters, limit ${MAX_PLAIN_QUERY_LENGTH})`);
  }
  const terms: TsQuery[] = plainQueryLexemes(text, language).map((lexeme) => ({ type: 'term', lexeme, prefix: false }));
  if (terms.length === 0) return EMPTY;
  return terms.length === 1 ? terms[0]! : { type: 'and', items: terms };
}

/** to_tsquery: `&`, `|`, `!`, parentheses, `<->`/`<N>`, `:*` prefixes, quoted operands. */
export function parseTsQuery(text: string, language: TextSearchLanguage): TsQuery {
  if (text.length > MAX_QUERY_LENGTH) {
    throw new TsQuerySyntaxError(`query is too long (${text.length} characters, limit ${MAX_QUERY_LENGTH})`);
  }
  const tree = parseTsQueryTree(text, (operand, prefix) => morphOperand(operand, language, prefix));
  return finish(tree);
}

/** True when evaluating the query needs word positions (it contains a phrase operator). */
export function queryHasPhrase(query: TsQuery): boolean {
  switch (query.type) {
    case 'phrase':
      return true;
    case 'not':
      return queryHasPhrase(query.item);
    case 'and':
    case 'or':
      return query.items.some(queryHasPhrase);
    default:
      return false;
  }
}

/** Renders a query the way PostgreSQL prints a tsquery (for logs and tests). */
export function tsQueryToString(query: TsQuery): string {
  return render(query, 0, false);
}

const PRIORITY = { or: 1, and: 2, phrase: 3, not: 4 } as const;
function render(q: TsQuery, parentPriority: number, rightOfPhrase: boolean): string {
  switch (q.type) {
    case 'empty':
      return '';
    case 'term':
      return `'${q.lexeme.replace(/'/g, "''").replace(/\\/g, '\\\\')}'${q.prefix ? ':*' : ''}`;
    case 'not':
      return `!${render(q.item, PRIORITY.not, false)}`;
    default: {
      const priority = PRIORITY[q.type];
      let sep = q.type === 'or' ? ' | ' : ' & ';
      if (q.type === 'phrase') sep = q.distance === 1 ? ' <-> ' : ` <${String(q.distance)}> `;
      const body = q.items.map((item, i) => render(item, priority, i > 0 && q.type === 'phrase')).join(sep);
      return priority < parentPriority || (q.type === 'phrase' && rightOfPhrase) ? `( ${body} )` : body;
    }
  }
}
