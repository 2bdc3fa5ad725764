// Interpreter for PostgreSQL's default text-search parser (TParserGet in wparser_def.c).
// It walks the rule tables of parser-states.ts with the same push/pop/clear semantics, so it
// reproduces the server's backtracking (e.g. "2011-04-04" first tries to be a host name, then
// falls back to 2011 / -04 / -04). tokenizer.ts only calls it for the rare characters its
// fast paths cannot decide on their own.

import * as chars from './char-classes';
import * as tables from './parser-states';

// Imports copied into module constants: hot loops then read locals, not live-binding accessors
// (test runners that rewrite ES modules turn every imported name into a getter call).
const { C_ALNUM, C_ALPHA, C_ASCLET, C_DIGIT, C_SPACE, C_SPECIAL, C_URLCHAR, C_XDIGIT, charLenAt, classAt } = chars;
const {
  A_BINGO,
  A_CLEAR,
  A_CLRALL,
  A_MERGE,
  A_POP,
  A_PUSH,
  A_RERUN,
  RULE_CHAR,
  RULE_FLAGS,
  RULE_SPECIAL,
  RULE_TEST,
  RULE_TO,
  RULE_TYPE,
  STATE_BASE,
  STATE_FIRST_RULE,
  Sp,
  T,
  Tok,
  stateId,
} = tables;

const STATE_URL_PATH_FIRST = stateId('InURLPathFirst');

// Some inputs make the backtracking parser quadratic (PostgreSQL too): '<!--' repeated, or
// '~/' repeated, restart a scan to the end of the text at every occurrence. A step budget,
// shared by all parser instances (the worker is single-threaded), bounds the work per text;
// tokenizer.ts degrades to plain word splitting once it is spent.
let stepsLeft = Infinity;
let stepsGranted = Infinity;
export function setStepBudget(steps: number): void {
  stepsLeft = steps;
  stepsGranted = steps;
}
/** Parser steps taken since the budget was last set: the tests' measure of parsing work. */
export function stepsTaken(): number {
  return stepsGranted - stepsLeft;
}
export function stepBudgetExhausted(): boolean {
  return stepsLeft <= 0;
}

// PostgreSQL recurses into a fresh parser for e-mail hosts and URL paths and relies on
// check_stack_depth(); we bound the nesting instead so hostile input cannot blow the JS stack.
const MAX_SUB_PARSER_LEVEL = 16;

/** One parser instance = PostgreSQL's TParser; the position stack is kept in parallel arrays. */
export class DefaultParser {
  text = '';
  len = 0;
  // Stack of TParserPosition entries; index depth-1 is the current one.
  pos: number[] = [0];
  lenTok: number[] = [0];
  charlen: number[] = [0];
  state: number[] = [STATE_BASE];
  pushed: number[] = [-1];
  depth = 1;
  ignore = false; // inside <script>/<style>: everything is blank until the closing tag
  wanthost = false; // set after a URL so the host is reported next
  tokStart = 0;
  tokLen = 0;
  tokType = 0;

  constructor(private readonly level: number) {}

  init(text: string, start: number): void {
    this.text = text;
    this.len = text.length;
    this.depth = 1;
    this.pos[0] = start;
    this.lenTok[0] = 0;
    this.charlen[0] = 0;
    this.state[0] = STATE_BASE;
    this.pushed[0] = -1;
    this.ignore = false;
    this.wanthost = false;
  }

  /** Drops saved positions below the current one. PostgreSQL leaves them on its stack after
   * some tokens (e.g. file paths) but never pops into them, so discarding them is invisible. */
  compact(): void {
    if (this.depth > 1) {
      this.copyEntry(this.depth - 1, 0);
      this.depth = 1;
    }
  }

  private copyEntry(from: number, to: number): void {
    this.pos[to] = this.pos[from]!;
    this.lenTok[to] = this.lenTok[from]!;
    this.charlen[to] = this.charlen[from]!;
    this.state[to] = this.state[from]!;
    this.pushed[to] = this.pushed[from]!;
  }

  /** TParserGet: finds the next token; false at end of text or when the step budget is
   * spent (then the parser state is meaningless and must be re-initialised). */
  get(): boolean {
    let top = this.depth - 1;
    if (this.pos[top]! >= this.len) return false;
    this.tokStart = this.pos[top]!;
    this.pushed[top] = -1;
    let flags = 0;
    while (this.pos[top]! <= this.len) {
      if (--stepsLeft <= 0) return false;
      const p = this.pos[top]!;
      this.charlen[top] = p >= this.len ? 0 : charLenAt(this.text, p);
      let rule: number;
      if (this.pushed[top]! >= 0) {
        rule = this.pushed[top]! + 1; // after a POP, resume at the rule after the PUSH
        this.pushed[top] = -1;
      } else {
        rule = STATE_FIRST_RULE[this.state[top]!]!;
      }
      while (RULE_TEST[rule] !== T.Any && !this.test(rule, top)) rule++;

      const special = RULE_SPECIAL[rule]!;
      if (special !== Sp.None) this.runSpecial(special, top);
      flags = RULE_FLAGS[rule]!;
      if (flags & A_BINGO) {
        this.tokLen = this.lenTok[top]!;
        this.lenTok[top] = 0;
        this.tokType = RULE_TYPE[rule]!;
      }
      if (flags & A_POP) {
        top--;
      } else if (flags & A_PUSH) {
        this.pushed[top] = rule;
        this.copyEntry(top, top + 1);
        top++;
        this.pushed[top] = -1;
      } else if (flags & A_CLEAR) {
        this.copyEntry(top, top - 1); // forget the saved entry just below the current one
        top--;
      } else if (flags & A_CLRALL) {
        this.copyEntry(top, 0);
        top = 0;
      } else if (flags & A_MERGE) {
        // The entry below takes over position and token length but keeps its own state and
        // its pushed-at rule (so matching resumes after the rule that pushed).
        this.pos[top - 1] = this.pos[top]!;
        this.charlen[top - 1] = this.charlen[top]!;
        this.lenTok[top - 1] = this.lenTok[top]!;
        top--;
      }
      this.depth = top + 1;
      const to = RULE_TO[rule]!;
      if (to >= 0) this.state[top] = to;
      if (flags & A_BINGO || (this.pos[top]! >= this.len && (flags & A_RERUN) === 0)) break;
      if (flags & (A_RERUN | A_POP)) continue;
      const cl = this.charlen[top]!;
      if (cl) {
        this.pos[top] = this.pos[top]! + cl;
        this.lenTok[top] = this.lenTok[top]! + cl;
      }
    }
    return (flags & A_BINGO) !== 0;
  }

  private test(rule: number, top: number): boolean {
    const p = this.pos[top]!;
    switch (RULE_TEST[rule]) {
      case T.Eof:
        return p >= this.len || this.charlen[top] === 0;
      case T.Eq:
        return this.charlen[top] === 1 && this.text.charCodeAt(p) === RULE_CHAR[rule];
      case T.Ignore:
        return this.ignore;
      case T.StopHost:
        if (this.wanthost) {
          this.wanthost = false;
          return true;
        }
        return false;
      case T.IsHost:
        return this.subParse(top, false);
      case T.IsUrlPath:
        return this.subParse(top, true);
    }
    const cls = p >= this.len ? 0 : classAt(this.text, p);
    switch (RULE_TEST[rule]) {
      case T.AscLet:
        return (cls & C_ASCLET) !== 0;
      case T.Alpha:
        return (cls & C_ALPHA) !== 0;
      case T.Digit:
        return (cls & C_DIGIT) !== 0;
      case T.Alnum:
        return (cls & C_ALNUM) !== 0;
      case T.NotAlnum:
        return (cls & C_ALNUM) === 0;
      case T.Special:
        return (cls & C_SPECIAL) !== 0;
      case T.Space:
        return (cls & C_SPACE) !== 0;
      case T.XDigit:
        return (cls & C_XDIGIT) !== 0;
      case T.UrlChar:
        return (cls & C_URLCHAR) !== 0;
      default:
        return false;
    }
  }

  /** p_ishost / p_isURLPath: run a child parser from the current position and, when it finds
   * a host (or URL path), swallow that text into the current token. */
  private subParse(top: number, urlPath: boolean): boolean {
    if (this.level >= MAX_SUB_PARSER_LEVEL) return false;
    const sub = subParser(this.level + 1);
    sub.init(this.text, this.pos[top]!);
    if (urlPath) {
      sub.copyEntry(0, 1);
      sub.depth = 2;
      sub.state[1] = STATE_URL_PATH_FIRST;
    } else {
      sub.wanthost = true;
    }
    if (!sub.get() || sub.tokType !== (urlPath ? Tok.UrlPath : Tok.Host)) return false;
    this.pos[top] = this.pos[top]! + sub.tokLen;
    this.lenTok[top] = this.lenTok[top]! + sub.tokLen;
    this.charlen[top] = sub.charlen[sub.depth - 1]!;
    return true;
  }

  private runSpecial(special: number, top: number): void {
    switch (special) {
      case Sp.Tags:
        this.specialTags(top);
        break;
      case Sp.FUrl: // rewind to the URL start: the host and the path are reported next
        this.wanthost = true;
        this.pos[top] = this.pos[top]! - this.lenTok[top]!;
        break;
      case Sp.Hyphen: // rewind so the parts of a hyphenated word are reported next
        this.pos[top] = this.pos[top]! - this.lenTok[top]!;
        break;
      case Sp.VerVersion:
        this.pos[top] = this.pos[top]! - this.lenTok[top]!;
        this.lenTok[top] = 0;
        break;
    }
  }

  /** SpecialTags: text between <script>/<style> and their closing tags is not indexed. */
  private specialTags(top: number): void {
    const n = this.lenTok[top]!;
    if (n < 6 || n > 8) return;
    const head = this.text.substr(this.tokStart, n).toLowerCase();
    if (head === '</script' || head === '</style') this.ignore = false;
    else if (head === '<script' || head === '<style') this.ignore = true;
  }
}

const subParsers: DefaultParser[] = [];
function subParser(level: number): DefaultParser {
  let p = subParsers[level];
  if (!p) {
    p = new DefaultParser(level);
    subParsers[level] = p;
  }
  return p;
}
