// Exact evaluation of a tsquery against one document, with word positions: TS_execute and
// TS_phrase_execute of PostgreSQL (tsvector_op.c). The index has no positions, so phrase
// queries are answered by the index as a superset and confirmed here row by row.

import type { TsQuery } from './tsquery';

/** PostgreSQL keeps at most 255 positions per lexeme in a tsvector (MAXNUMPOS - 1). */
const MAX_POSITIONS_PER_LEXEME = 255;

/** Positions of each lexeme of one document, as a tsvector would hold them. */
class DocumentPositions {
  private readonly byLexeme = new Map<string, number[]>();

  constructor(lexemes: readonly string[], positions?: ArrayLike<number>) {
    for (let i = 0; i < lexemes.length; i++) {
      const pos = positions ? positions[i]! : i + 1;
      const list = this.byLexeme.get(lexemes[i]!);
      if (!list) this.byLexeme.set(lexemes[i]!, [pos]);
      else if (list[list.length - 1] !== pos && list.length < MAX_POSITIONS_PER_LEXEME) list.push(pos);
    }
  }

  has(term: { lexeme: string; prefix: boolean }): boolean {
    if (!term.prefix) return this.byLexeme.has(term.lexeme);
    for (const lexeme of this.byLexeme.keys()) if (lexeme.startsWith(term.lexeme)) return true;
    return false;
  }

  /** Ascending distinct positions of the lexeme (or of all lexemes with the prefix). */
  positions(term: { lexeme: string; prefix: boolean }): number[] {
    if (!term.prefix) return this.byLexeme.get(term.lexeme) ?? [];
    const all: number[] = [];
    for (const [lexeme, list] of this.byLexeme) if (lexeme.startsWith(term.lexeme)) all.push(...list);
    all.sort((a, b) => a - b);
    return all.filter((p, i) => i === 0 || all[i - 1] !== p);
  }
}

/** ExecPhraseData: match positions (right end of the match), NOT-ness, and match width. */
interface PhraseData {
  pos: number[];
  negate: boolean;
  width: number;
}
const NO_MATCH = (): PhraseData => ({ pos: [], negate: false, width: 0 });

const EMIT_BOTH = 1,
  EMIT_L_ONLY = 2,
  EMIT_R_ONLY = 4;

/** TS_phrase_output: merge-join of two position lists after shifting them by the offsets. */
function output(l: PhraseData, r: PhraseData, emit: number, lOffset: number, rOffset: number): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < l.pos.length || j < r.pos.length) {
    let lp: number;
    let rp: number;
    if (i < l.pos.length) lp = l.pos[i]! + lOffset;
    else if (!(emit & EMIT_R_ONLY)) break;
    else lp = Infinity;
    if (j < r.pos.length) rp = r.pos[j]! + rOffset;
    else if (!(emit & EMIT_L_ONLY)) break;
    else rp = Infinity;
    if (lp < rp) {
      if (emit & EMIT_L_ONLY) out.push(lp);
      i++;
    } else if (lp === rp) {
      if (emit & EMIT_BOTH) out.push(rp);
      i++;
      j++;
    } else {
      if (emit & EMIT_R_ONLY) out.push(rp);
      j++;
    }
  }
  return out;
}

/** One binary step of TS_phrase_execute for AND, OR or PHRASE; null = no match. */
function combine(l: PhraseData, r: PhraseData, op: 'and' | 'or' | 'phrase', distance: number): PhraseData | null {
  let lOffset: number;
  let rOffset: number;
  let width: number;
  if (op === 'phrase') {
    lOffset = distance + r.width;
    rOffset = 0;
    width = distance + l.width + r.width;
  } else {
    // AND/OR align the narrower operand to the right end of the wider one.
    width = Math.max(l.width, r.width);
    lOffset = width - l.width;
    rOffset = width - r.width;
  }
  const done = (pos: number[], negate: boolean): PhraseData | null => (negate || pos.length > 0 ? { pos, negate, width } : null);
  if (op === 'or') {
    if (l.negate && r.negate) return done(output(l, r, EMIT_BOTH, lOffset, rOffset), true); // !(L & R)
    if (l.negate) return done(output(l, r, EMIT_L_ONLY, lOffset, rOffset), true); // !(L & !R)
    if (r.negate) return done(output(l, r, EMIT_R_ONLY, lOffset, rOffset), true); // !(!L & R)
    return done(output(l, r, EMIT_BOTH | EMIT_L_ONLY | EMIT_R_ONLY, lOffset, rOffset), false);
  }
  if (l.negate && r.negate) return done(output(l, r, EMIT_BOTH | EMIT_L_ONLY | EMIT_R_ONLY, lOffset, rOffset), true);
  if (l.negate) return done(output(l, r, EMIT_R_ONLY, lOffset, rOffset), false); // R && !L
  if (r.negate) return done(output(l, r, EMIT_L_ONLY, lOffset, rOffset), false); // L && !R
  return done(output(l, r, EMIT_BOTH, lOffset, rOffset), false);
}

/** TS_phrase_execute: null = no match; otherwise where (or, negated, where not) it matches. */
function phraseExecute(q: TsQuery, doc: DocumentPositions): PhraseData | null {
  switch (q.type) {
    case 'empty':
      return null;
    case 'term': {
      const pos = doc.positions(q);
      return pos.length > 0 ? { pos, negate: false, width: 0 } : null;
    }
    case 'not': {
      const inner = phraseExecute(q.item, doc);
      if (inner === null) return { ...NO_MATCH(), negate: true }; // match everywhere
      if (inner.pos.length > 0) return { ...inner, negate: !inner.negate };
      return null; // "match everywhere" negated
    }
    case 'or': {
      // Items fold left to right, like the binary tree PostgreSQL builds.
      let acc = phraseExecute(q.items[0]!, doc);
      for (let i = 1; i < q.items.length; i++) {
        const right = phraseExecute(q.items[i]!, doc);
        if (acc === null && right === null) continue;
        acc = combine(acc ?? NO_MATCH(), right ?? NO_MATCH(), 'or', 0);
      }
      return acc;
    }
    case 'and':
    case 'phrase': {
      let acc = phraseExecute(q.items[0]!, doc);
      for (let i = 1; i < q.items.length && acc !== null; i++) {
        const right = phraseExecute(q.items[i]!, doc);
        acc = right === null ? null : combine(acc, right, q.type, q.type === 'phrase' ? q.distance : 0);
      }
      return acc;
    }
  }
}

/** TS_execute: boolean operators outside phrases, phrase subtrees with positions. */
function execute(q: TsQuery, doc: DocumentPositions): boolean {
  switch (q.type) {
    case 'empty':
      return false;
    case 'term':
      return doc.has(q);
    case 'not':
      return !execute(q.item, doc);
    case 'and':
      return q.items.every((item) => execute(item, doc));
    case 'or':
      return q.items.some((item) => execute(item, doc));
    case 'phrase':
      return phraseExecute(q, doc) !== null;
  }
}

/**
 * Does one document match the query (`tsvector @@ tsquery`)? Give the lexemes of the row's
 * document and, for phrase queries, their PostgreSQL positions (tokenizeDocument); without
 * positions the array index + 1 is used, which ignores the gaps left by stop words.
 */
export function matchesPhrase(query: TsQuery, documentLexemes: readonly string[], positions?: ArrayLike<number>): boolean {
  return execute(query, new DocumentPositions(documentLexemes, positions));
}
