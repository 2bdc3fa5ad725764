// to_tsquery's input syntax (gettoken_query_standard + the tsvector word reader + makepol in
// tsquery.c), producing the internal tree of tsquery-tree.ts. The parser is iterative
// (operator-precedence with explicit stacks), so deep nesting costs heap, not JS stack, and
// is rejected with a clear error past fixed limits.

import { joinBoolean, joinPhrase, type QNode } from './tsquery-tree';

export class TsQuerySyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TsQuerySyntaxError';
  }
}

type Op = 'not' | 'phrase' | 'and' | 'or';
interface PendingOp {
  op: Op;
  d: number;
}
/** tsearch_op_priority: ! binds tightest, then <->, then &, then |. */
const PRIORITY: Record<Op, number> = { not: 4, phrase: 3, and: 2, or: 1 };
/** PostgreSQL's operator stack holds 32 entries per parenthesis level ("tsquery stack too small"). */
const OP_STACK_DEPTH = 32;
/** Largest distance accepted in <N> (MAXENTRYPOS). */
const MAX_PHRASE_DISTANCE = 16384;
export const MAX_PAREN_DEPTH = 100;

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
/** ISOPERATOR: characters that end an unquoted operand. */
const isOperatorChar = (c: string | undefined): boolean => c === '!' || c === '&' || c === '|' || c === '(' || c === ')' || c === '<';

/** Turns one operand's text into a node (pushval_morph); null-free: all stop words -> STOP. */
export type OperandMorph = (text: string, prefix: boolean) => QNode;

export function parseTsQueryTree(text: string, morph: OperandMorph): QNode | null {
  const operands: QNode[] = [];
  const frames: PendingOp[][] = [[]];
  const fail = (why: string): never => {
    throw new TsQuerySyntaxError(`syntax error in tsquery: ${why}`);
  };

  const apply = (pending: PendingOp): void => {
    if (pending.op === 'not') {
      const item = operands.pop() ?? fail('missing operand');
      operands.push({ k: 'not', c: item });
      return;
    }
    const right = operands.pop() ?? fail('missing operand');
    const left = operands.pop() ?? fail('missing operand');
    operands.push(pending.op === 'phrase' ? joinPhrase(left, right, pending.d) : joinBoolean(pending.op, left, right));
  };
  // cleanOpStack: NOT is right-associative, the binary operators left-associative.
  const reduce = (ops: PendingOp[], op: Op): void => {
    const p = PRIORITY[op];
    while (ops.length > 0) {
      const top = ops[ops.length - 1]!;
      if (op !== 'not' ? p > PRIORITY[top.op] : p >= PRIORITY[top.op]) break;
      ops.pop();
      apply(top);
    }
  };
  const pushOperator = (op: Op, d: number): void => {
    const ops = frames[frames.length - 1]!;
    reduce(ops, op);
    if (ops.length >= OP_STACK_DEPTH) throw new TsQuerySyntaxError('tsquery stack too small: too many consecutive operators');
    ops.push({ op, d });
  };

  let i = 0;
  const n = text.length;
  let waitingOperand = true;
  let sawOperand = false;
  for (;;) {
    while (i < n && isSpace(text[i])) i++;
    const c = text[i];
    if (waitingOperand) {
      if (c === '!') {
        i++;
        pushOperator('not', 0);
      } else if (c === '(') {
        i++;
        if (frames.length > MAX_PAREN_DEPTH) throw new TsQuerySyntaxError(`tsquery nested more than ${MAX_PAREN_DEPTH} parentheses deep`);
        frames.push([]);
      } else if (c === ':') {
        fail('unexpected ":"');
      } else if (i >= n) {
        if (!sawOperand && frames.length === 1 && frames[0]!.length === 0) return null; // empty query
        fail('no operand');
      } else {
        const word = readOperand(text, i, fail);
        i = word.end;
        let prefix = false;
        if (text[i] === ':') {
          // weight/prefix modifiers, e.g. :*, :AB, :*A (weights are ignored)
          i++;
          while (i < n && 'aAbBcCdD*'.includes(text[i]!)) {
            if (text[i] === '*') prefix = true;
            i++;
          }
        }
        operands.push(morph(word.value, prefix));
        sawOperand = true;
        waitingOperand = false;
      }
      continue;
    }
    if (i >= n) {
      if (frames.length > 1) fail('unbalanced parentheses');
      break;
    }
    if (c === '&' || c === '|') {
      i++;
      pushOperator(c === '&' ? 'and' : 'or', 0);
      waitingOperand = true;
    } else if (c === '<') {
      const phrase = readPhraseOperator(text, i);
      if (!phrase) fail('bad phrase operator');
      else {
        i = phrase.end;
        pushOperator('phrase', phrase.distance);
        waitingOperand = true;
      }
    } else if (c === ')') {
      i++;
      if (frames.length === 1) fail('unbalanced parentheses');
      reduce(frames.pop()!, 'or');
    } else {
      fail(`unexpected "${c}"`);
    }
  }
  reduce(frames[0]!, 'or');
  if (operands.length !== 1) fail('malformed query');
  return operands[0]!;
}

/** gettoken_tsvector in tsquery mode: an unquoted word (ends at space, operator or ':') or a
 * quoted one ('' inside quotes is a quote); backslash escapes the next character. */
function readOperand(text: string, start: number, fail: (why: string) => never): { value: string; end: number } {
  let i = start;
  let value = '';
  const n = text.length;
  if (isOperatorChar(text[i])) fail(`unexpected "${text[i]}"`);
  if (text[i] === "'") {
    i++;
    for (;;) {
      if (i >= n) fail('unterminated quoted operand');
      const c = text[i]!;
      if (c === '\\') {
        if (i + 1 >= n) fail('there is no escaped character');
        value += text[i + 1];
        i += 2;
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          value += "'";
          i += 2;
        } else {
          i++;
          break;
        }
      } else {
        value += c;
        i++;
      }
    }
    if (value === '') fail('empty quoted operand');
    return { value, end: i };
  }
  while (i < n) {
    const c = text[i]!;
    if (c === '\\') {
      if (i + 1 >= n) fail('there is no escaped character');
      value += text[i + 1];
      i += 2;
    } else if (isSpace(c) || isOperatorChar(c) || c === ':') {
      break;
    } else {
      value += c;
      i++;
    }
  }
  return { value, end: i };
}

/** parse_phrase_operator: `<->` (distance 1) or `<N>` with 0 <= N <= 16384. */
function readPhraseOperator(text: string, start: number): { distance: number; end: number } | null {
  let i = start + 1;
  let distance = 1;
  if (text[i] === '-') {
    i++;
  } else {
    const m = /^[0-9]+/.exec(text.slice(i, i + 32));
    if (!m) return null;
    distance = Number(m[0]);
    if (m[0].length > 12 || distance > MAX_PHRASE_DISTANCE) {
      throw new TsQuerySyntaxError(
        `distance in phrase operator must be an integer value between zero and ${MAX_PHRASE_DISTANCE} inclusive`,
      );
    }
    i += m[0].length;
  }
  if (text[i] !== '>') return null;
  // PostgreSQL only accepts the operator when something follows it.
  if (i + 1 >= text.length) return null;
  return { distance, end: i + 1 };
}
