// Internal tsquery tree used while parsing, before stop words are cleaned out. It is
// PostgreSQL's binary operator tree with left-associative chains flattened: `a & b & c` is one
// node with three items and `a <-> b <-> c` one phrase node with a single distance, meaning
// ((a <-> b) <-> c). Flattening keeps recursion depth proportional to the nesting the user
// wrote, not to the number of operands.

export type QNode =
  | { k: 'val'; lexeme: string; prefix: boolean }
  | { k: 'stop' } // placeholder for a stop word (QI_VALSTOP)
  | { k: 'not'; c: QNode }
  | { k: 'and' | 'or'; items: QNode[] }
  | { k: 'phrase'; items: QNode[]; d: number };

export const STOP: QNode = { k: 'stop' };

/** Joins two operands with AND/OR, merging into an existing node of the same operator.
 * `left` may be mutated: callers only pass nodes they own. */
export function joinBoolean(op: 'and' | 'or', left: QNode, right: QNode): QNode {
  if (left.k === op) {
    if (right.k === op) left.items.push(...right.items);
    else left.items.push(right);
    return left;
  }
  if (right.k === op) return { k: op, items: [left, ...right.items] };
  return { k: op, items: [left, right] };
}

/** Joins `left <d> right`; a left phrase chain with the same distance is extended in place,
 * which is exactly PostgreSQL's left-associative tree. */
export function joinPhrase(left: QNode, right: QNode, d: number): QNode {
  if (left.k === 'phrase' && left.d === d) {
    left.items.push(right);
    return left;
  }
  return { k: 'phrase', items: [left, right], d };
}

/** Tree depth, computed without recursion so a hostile tree cannot overflow the stack. */
export function treeDepth(root: QNode): number {
  let max = 0;
  const stack: [QNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (node.k === 'not') stack.push([node.c, depth + 1]);
    else if (node.k === 'and' || node.k === 'or' || node.k === 'phrase') {
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return max;
}

interface Cleaned {
  node: QNode | null;
  /** Distance the parent phrase must add on the left / right side (removed stop words). */
  ladd: number;
  radd: number;
}

/**
 * clean_stopwords_intree (tsquery_cleanup.c): removes stop-word placeholders. Inside phrases
 * a removed operand widens the distance of the surrounding operator, so `a <-> the <-> b`
 * becomes `a <2> b`; around AND/OR/NOT it simply disappears. Returns null when nothing is
 * left. Items are folded left to right, which is the binary tree PostgreSQL would have.
 * Never mutates its input: every non-leaf node it returns (and later extends) is new.
 */
export function cleanStopWords(node: QNode): Cleaned {
  switch (node.k) {
    case 'val':
      return { node, ladd: 0, radd: 0 };
    case 'stop':
      return { node: null, ladd: 0, radd: 0 };
    case 'not': {
      const child = cleanStopWords(node.c);
      return { node: child.node && { k: 'not', c: child.node }, ladd: child.ladd, radd: child.radd };
    }
    case 'and':
    case 'or': {
      let acc = cleanStopWords(node.items[0]!);
      for (let i = 1; i < node.items.length; i++) {
        const right = cleanStopWords(node.items[i]!);
        if (!acc.node && !right.node) {
          const add = Math.max(acc.ladd, right.ladd);
          acc = { node: null, ladd: add, radd: add };
        } else if (!acc.node) {
          acc = right;
        } else if (right.node) {
          acc = { node: joinBoolean(node.k, acc.node, right.node), ladd: 0, radd: 0 };
        }
      }
      return acc;
    }
    case 'phrase': {
      const d = node.d;
      let acc = cleanStopWords(node.items[0]!);
      for (let i = 1; i < node.items.length; i++) {
        const right = cleanStopWords(node.items[i]!);
        if (!acc.node && !right.node) {
          const add = acc.ladd + d + right.ladd;
          acc = { node: null, ladd: add, radd: add };
        } else if (!acc.node) {
          acc = { node: right.node, ladd: acc.ladd + d + right.ladd, radd: right.radd };
        } else if (!right.node) {
          acc = { node: acc.node, ladd: acc.ladd, radd: acc.radd + d + right.radd };
        } else {
          acc = { node: joinPhrase(acc.node, right.node, d + acc.radd + right.ladd), ladd: acc.ladd, radd: right.radd };
        }
      }
      return acc;
    }
  }
}
