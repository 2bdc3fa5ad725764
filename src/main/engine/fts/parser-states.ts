// The state/action tables of PostgreSQL's default text-search parser ("prsd", wparser_def.c,
// PostgreSQL 18), transcribed rule by rule so that token boundaries and token types match the
// server's. Each state is an ordered list of rules; the first rule whose test accepts the
// current character fires. The interpreter lives in default-parser.ts.

/** Token types, numbered as in PostgreSQL (ts_token_type('default')). */
export const Tok = {
  AsciiWord: 1, Word: 2, NumWord: 3, Email: 4, Url: 5, Host: 6, SciFloat: 7,
  Version: 8, HWordNumPart: 9, HWordPart: 10, HWordAsciiPart: 11, Blank: 12, Tag: 13,
  Protocol: 14, NumHWord: 15, AsciiHWord: 16, HWord: 17, UrlPath: 18, File: 19,
  Float: 20, Int: 21, UInt: 22, Entity: 23,
} as const;

/** Character tests a rule can use (PostgreSQL's p_is* functions). */
export const T = {
  Any: 0, Eof: 1, Eq: 2, Ignore: 3, AscLet: 4, Alpha: 5, Digit: 6, Alnum: 7, NotAlnum: 8,
  Special: 9, Space: 10, XDigit: 11, UrlChar: 12, StopHost: 13, IsHost: 14, IsUrlPath: 15,
} as const;
type TestId = (typeof T)[keyof typeof T];

export const A_NEXT = 0;
export const A_BINGO = 1;
export const A_POP = 2;
export const A_PUSH = 4;
export const A_RERUN = 8;
export const A_CLEAR = 16;
export const A_MERGE = 32;
export const A_CLRALL = 64;

/** Special handlers run when a rule fires (SpecialTags, SpecialFURL, ...). */
export const Sp = { None: 0, Tags: 1, FUrl: 2, Hyphen: 3, VerVersion: 4 } as const;
type SpecialId = (typeof Sp)[keyof typeof Sp];

const STATE_NAMES = [
  'Base', 'InNumWord', 'InAsciiWord', 'InWord', 'InUnsignedInt', 'InSignedIntFirst',
  'InSignedInt', 'InSpace', 'InUDecimalFirst', 'InUDecimal', 'InDecimalFirst', 'InDecimal',
  'InVerVersion', 'InSVerVersion', 'InVersionFirst', 'InVersion', 'InMantissaFirst',
  'InMantissaSign', 'InMantissa', 'InXMLEntityFirst', 'InXMLEntity', 'InXMLEntityNumFirst',
  'InXMLEntityNum', 'InXMLEntityHexNumFirst', 'InXMLEntityHexNum', 'InXMLEntityEnd',
  'InTagFirst', 'InXMLBegin', 'InTagCloseFirst', 'InTagName', 'InTagBeginEnd', 'InTag',
  'InTagEscapeK', 'InTagEscapeKK', 'InTagBackSleshed', 'InTagEnd', 'InCommentFirst',
  'InCommentLast', 'InComment', 'InCloseCommentFirst', 'InCloseCommentLast', 'InCommentEnd',
  'InHostFirstDomain', 'InHostDomainSecond', 'InHostDomain', 'InPortFirst', 'InPort',
  'InHostFirstAN', 'InHost', 'InEmail', 'InFileFirst', 'InFileTwiddle', 'InPathFirst',
  'InPathFirstFirst', 'InPathSecond', 'InFile', 'InFileNext', 'InURLPathFirst',
  'InURLPathStart', 'InURLPath', 'InFURL', 'InProtocolFirst', 'InProtocolSecond',
  'InProtocolEnd', 'InHyphenAsciiWordFirst', 'InHyphenAsciiWord', 'InHyphenWordFirst',
  'InHyphenWord', 'InHyphenNumWordFirst', 'InHyphenNumWord', 'InHyphenDigitLookahead',
  'InParseHyphen', 'InParseHyphenHyphen', 'InHyphenWordPart', 'InHyphenAsciiWordPart',
  'InHyphenNumWordPart', 'InHyphenUnsignedInt',
] as const;
type StateName = (typeof STATE_NAMES)[number];

export const STATE_BASE = 0;
export const STATE_COUNT = STATE_NAMES.length;
export const stateId = (name: StateName): number => STATE_NAMES.indexOf(name);

// [test, char ('' when unused), flags, target state ('' = stay), token type, special]
type Rule = [TestId, string, number, StateName | '', number, SpecialId];
const B = A_BINGO, P = A_PUSH, N = A_NEXT;
const r = (t: TestId, c: string, f: number, to: StateName | '', type = 0, sp: SpecialId = Sp.None): Rule =>
  [t, c, f, to, type, sp];
const eof = (f: number, to: StateName | '' = '', type = 0, sp: SpecialId = Sp.None): Rule => r(T.Eof, '', f, to, type, sp);
const eq = (c: string, f: number, to: StateName | '', type = 0, sp: SpecialId = Sp.None): Rule => r(T.Eq, c, f, to, type, sp);
const any = (f: number, to: StateName | '' = '', type = 0, sp: SpecialId = Sp.None): Rule => r(T.Any, '', f, to, type, sp);
const pop = (): Rule => any(A_POP);
const eofPop = (): Rule => eof(A_POP);

const TABLE: Record<StateName, Rule[]> = {
  Base: [eof(N), eq('<', P, 'InTagFirst'), r(T.Ignore, '', N, 'InSpace'),
    r(T.AscLet, '', N, 'InAsciiWord'), r(T.Alpha, '', N, 'InWord'), r(T.Digit, '', N, 'InUnsignedInt'),
    eq('-', P, 'InSignedIntFirst'), eq('+', P, 'InSignedIntFirst'), eq('&', P, 'InXMLEntityFirst'),
    eq('~', P, 'InFileTwiddle'), eq('/', P, 'InFileFirst'), eq('.', P, 'InPathFirstFirst'), any(N, 'InSpace')],
  InNumWord: [eof(B, 'Base', Tok.NumWord), r(T.Alnum, '', N, 'InNumWord'), r(T.Special, '', N, 'InNumWord'),
    eq('@', P, 'InEmail'), eq('/', P, 'InFileFirst'), eq('.', P, 'InFileNext'),
    eq('-', P, 'InHyphenNumWordFirst'), any(B, 'Base', Tok.NumWord)],
  InAsciiWord: [eof(B, 'Base', Tok.AsciiWord), r(T.AscLet, '', N, ''), eq('.', P, 'InHostFirstDomain'),
    eq('.', P, 'InFileNext'), eq('-', P, 'InHostFirstAN'), eq('-', P, 'InHyphenAsciiWordFirst'),
    eq('_', P, 'InHostFirstAN'), eq('@', P, 'InEmail'), eq(':', P, 'InProtocolFirst'),
    eq('/', P, 'InFileFirst'), r(T.Digit, '', P, 'InHost'), r(T.Digit, '', N, 'InNumWord'),
    r(T.Alpha, '', N, 'InWord'), r(T.Special, '', N, 'InWord'), any(B, 'Base', Tok.AsciiWord)],
  InWord: [eof(B, 'Base', Tok.Word), r(T.Alpha, '', N, ''), r(T.Special, '', N, ''),
    r(T.Digit, '', N, 'InNumWord'), eq('-', P, 'InHyphenWordFirst'), any(B, 'Base', Tok.Word)],
  InUnsignedInt: [eof(B, 'Base', Tok.UInt), r(T.Digit, '', N, ''), eq('.', P, 'InHostFirstDomain'),
    eq('.', P, 'InUDecimalFirst'), eq('e', P, 'InMantissaFirst'), eq('E', P, 'InMantissaFirst'),
    eq('-', P, 'InHostFirstAN'), eq('_', P, 'InHostFirstAN'), eq('@', P, 'InEmail'),
    r(T.AscLet, '', P, 'InHost'), r(T.Alpha, '', N, 'InNumWord'), r(T.Special, '', N, 'InNumWord'),
    eq('/', P, 'InFileFirst'), any(B, 'Base', Tok.UInt)],
  InSignedIntFirst: [eofPop(), r(T.Digit, '', A_CLEAR, 'InSignedInt'), pop()],
  InSignedInt: [eof(B, 'Base', Tok.Int), r(T.Digit, '', N, ''), eq('.', P, 'InDecimalFirst'),
    eq('e', P, 'InMantissaFirst'), eq('E', P, 'InMantissaFirst'), any(B, 'Base', Tok.Int)],
  InSpace: [eof(B, 'Base', Tok.Blank), eq('<', B, 'Base', Tok.Blank), r(T.Ignore, '', N, ''),
    eq('-', B, 'Base', Tok.Blank), eq('+', B, 'Base', Tok.Blank), eq('&', B, 'Base', Tok.Blank),
    eq('/', B, 'Base', Tok.Blank), r(T.NotAlnum, '', N, 'InSpace'), any(B, 'Base', Tok.Blank)],
  InUDecimalFirst: [eofPop(), r(T.Digit, '', A_CLEAR, 'InUDecimal'), pop()],
  InUDecimal: [eof(B, 'Base', Tok.Float), r(T.Digit, '', N, 'InUDecimal'), eq('.', P, 'InVersionFirst'),
    eq('e', P, 'InMantissaFirst'), eq('E', P, 'InMantissaFirst'), any(B, 'Base', Tok.Float)],
  InDecimalFirst: [eofPop(), r(T.Digit, '', A_CLEAR, 'InDecimal'), pop()],
  InDecimal: [eof(B, 'Base', Tok.Float), r(T.Digit, '', N, 'InDecimal'), eq('.', P, 'InVerVersion'),
    eq('e', P, 'InMantissaFirst'), eq('E', P, 'InMantissaFirst'), any(B, 'Base', Tok.Float)],
  InVerVersion: [eofPop(), r(T.Digit, '', A_RERUN, 'InSVerVersion', 0, Sp.VerVersion), pop()],
  InSVerVersion: [eofPop(), r(T.Digit, '', B | A_CLRALL, 'InUnsignedInt', Tok.Blank), any(N)],
  InVersionFirst: [eofPop(), r(T.Digit, '', A_CLEAR, 'InVersion'), pop()],
  InVersion: [eof(B, 'Base', Tok.Version), r(T.Digit, '', N, 'InVersion'), eq('.', P, 'InVersionFirst'),
    any(B, 'Base', Tok.Version)],
  InMantissaFirst: [eofPop(), r(T.Digit, '', A_CLEAR, 'InMantissa'), eq('+', N, 'InMantissaSign'),
    eq('-', N, 'InMantissaSign'), pop()],
  InMantissaSign: [eofPop(), r(T.Digit, '', A_CLEAR, 'InMantissa'), pop()],
  InMantissa: [eof(B, 'Base', Tok.SciFloat), r(T.Digit, '', N, 'InMantissa'), any(B, 'Base', Tok.SciFloat)],
  InXMLEntityFirst: [eofPop(), eq('#', N, 'InXMLEntityNumFirst'), r(T.AscLet, '', N, 'InXMLEntity'),
    eq(':', N, 'InXMLEntity'), eq('_', N, 'InXMLEntity'), pop()],
  InXMLEntity: [eofPop(), r(T.Alnum, '', N, 'InXMLEntity'), eq(':', N, 'InXMLEntity'),
    eq('_', N, 'InXMLEntity'), eq('.', N, 'InXMLEntity'), eq('-', N, 'InXMLEntity'),
    eq(';', N, 'InXMLEntityEnd'), pop()],
  InXMLEntityNumFirst: [eofPop(), eq('x', N, 'InXMLEntityHexNumFirst'), eq('X', N, 'InXMLEntityHexNumFirst'),
    r(T.Digit, '', N, 'InXMLEntityNum'), pop()],
  InXMLEntityNum: [eofPop(), r(T.Digit, '', N, 'InXMLEntityNum'), eq(';', N, 'InXMLEntityEnd'), pop()],
  InXMLEntityHexNumFirst: [eofPop(), r(T.XDigit, '', N, 'InXMLEntityHexNum'), pop()],
  InXMLEntityHexNum: [eofPop(), r(T.XDigit, '', N, 'InXMLEntityHexNum'), eq(';', N, 'InXMLEntityEnd'), pop()],
  InXMLEntityEnd: [any(B | A_CLEAR, 'Base', Tok.Entity)],
  InTagFirst: [eofPop(), eq('/', P, 'InTagCloseFirst'), eq('!', P, 'InCommentFirst'), eq('?', P, 'InXMLBegin'),
    r(T.AscLet, '', P, 'InTagName'), eq(':', P, 'InTagName'), eq('_', P, 'InTagName'), pop()],
  InXMLBegin: [eofPop(), eq('x', N, 'InTag'), pop()],
  InTagCloseFirst: [eofPop(), r(T.AscLet, '', N, 'InTagName'), pop()],
  InTagName: [eofPop(), eq('/', N, 'InTagBeginEnd'), eq('>', N, 'InTagEnd', 0, Sp.Tags),
    r(T.Space, '', N, 'InTag', 0, Sp.Tags), r(T.Alnum, '', N, ''), eq(':', N, ''), eq('_', N, ''),
    eq('.', N, ''), eq('-', N, ''), pop()],
  InTagBeginEnd: [eofPop(), eq('>', N, 'InTagEnd'), pop()],
  InTag: [eofPop(), eq('>', N, 'InTagEnd', 0, Sp.Tags), eq('\'', N, 'InTagEscapeK'), eq('"', N, 'InTagEscapeKK'),
    r(T.AscLet, '', N, ''), r(T.Digit, '', N, ''), ...'=-_#/:.&?%~'.split('').map((c) => eq(c, N, '')),
    r(T.Space, '', N, '', 0, Sp.Tags), pop()],
  InTagEscapeK: [eofPop(), eq('\\', P, 'InTagBackSleshed'), eq('\'', N, 'InTag'), any(N, 'InTagEscapeK')],
  InTagEscapeKK: [eofPop(), eq('\\', P, 'InTagBackSleshed'), eq('"', N, 'InTag'), any(N, 'InTagEscapeKK')],
  InTagBackSleshed: [eofPop(), any(A_MERGE)],
  InTagEnd: [any(B | A_CLRALL, 'Base', Tok.Tag)],
  InCommentFirst: [eofPop(), eq('-', N, 'InCommentLast'), eq('D', N, 'InTag'), eq('d', N, 'InTag'), pop()],
  InCommentLast: [eofPop(), eq('-', N, 'InComment'), pop()],
  InComment: [eofPop(), eq('-', N, 'InCloseCommentFirst'), any(N)],
  InCloseCommentFirst: [eofPop(), eq('-', N, 'InCloseCommentLast'), any(N, 'InComment')],
  InCloseCommentLast: [eofPop(), eq('-', N, ''), eq('>', N, 'InCommentEnd'), any(N, 'InComment')],
  InCommentEnd: [any(B | A_CLRALL, 'Base', Tok.Tag)],
  InHostFirstDomain: [eofPop(), r(T.AscLet, '', N, 'InHostDomainSecond'), r(T.Digit, '', N, 'InHost'), pop()],
  InHostDomainSecond: [eofPop(), r(T.AscLet, '', N, 'InHostDomain'), r(T.Digit, '', P, 'InHost'),
    eq('-', P, 'InHostFirstAN'), eq('_', P, 'InHostFirstAN'), eq('.', P, 'InHostFirstDomain'),
    eq('@', P, 'InEmail'), pop()],
  InHostDomain: [eof(B | A_CLRALL, 'Base', Tok.Host), r(T.AscLet, '', N, 'InHostDomain'),
    r(T.Digit, '', P, 'InHost'), eq(':', P, 'InPortFirst'), eq('-', P, 'InHostFirstAN'),
    eq('_', P, 'InHostFirstAN'), eq('.', P, 'InHostFirstDomain'), eq('@', P, 'InEmail'),
    r(T.Digit, '', A_POP, ''), r(T.StopHost, '', B | A_CLRALL, 'InURLPathStart', Tok.Host),
    eq('/', P, 'InFURL'), any(B | A_CLRALL, 'Base', Tok.Host)],
  InPortFirst: [eofPop(), r(T.Digit, '', N, 'InPort'), pop()],
  InPort: [eof(B | A_CLRALL, 'Base', Tok.Host), r(T.Digit, '', N, 'InPort'),
    r(T.StopHost, '', B | A_CLRALL, 'InURLPathStart', Tok.Host), eq('/', P, 'InFURL'),
    any(B | A_CLRALL, 'Base', Tok.Host)],
  InHostFirstAN: [eofPop(), r(T.Digit, '', N, 'InHost'), r(T.AscLet, '', N, 'InHost'), pop()],
  InHost: [eofPop(), r(T.Digit, '', N, 'InHost'), r(T.AscLet, '', N, 'InHost'), eq('@', P, 'InEmail'),
    eq('.', P, 'InHostFirstDomain'), eq('-', P, 'InHostFirstAN'), eq('_', P, 'InHostFirstAN'), pop()],
  InEmail: [r(T.StopHost, '', A_POP, ''), r(T.IsHost, '', B | A_CLRALL, 'Base', Tok.Email), pop()],
  InFileFirst: [eofPop(), r(T.AscLet, '', N, 'InFile'), r(T.Digit, '', N, 'InFile'), eq('.', N, 'InPathFirst'),
    eq('_', N, 'InFile'), eq('~', P, 'InFileTwiddle'), pop()],
  InFileTwiddle: [eofPop(), r(T.AscLet, '', N, 'InFile'), r(T.Digit, '', N, 'InFile'), eq('_', N, 'InFile'),
    eq('/', N, 'InFileFirst'), pop()],
  InPathFirst: [eofPop(), r(T.AscLet, '', N, 'InFile'), r(T.Digit, '', N, 'InFile'), eq('_', N, 'InFile'),
    eq('.', N, 'InPathSecond'), eq('/', N, 'InFileFirst'), pop()],
  InPathFirstFirst: [eofPop(), eq('.', N, 'InPathSecond'), eq('/', N, 'InFileFirst'), pop()],
  InPathSecond: [eof(B | A_CLEAR, 'Base', Tok.File), eq('/', P, 'InFileFirst'),
    eq('/', B | A_CLEAR, 'Base', Tok.File), r(T.Space, '', B | A_CLEAR, 'Base', Tok.File), pop()],
  InFile: [eof(B, 'Base', Tok.File), r(T.AscLet, '', N, 'InFile'), r(T.Digit, '', N, 'InFile'),
    eq('.', P, 'InFileNext'), eq('_', N, 'InFile'), eq('-', N, 'InFile'), eq('/', P, 'InFileFirst'),
    any(B, 'Base', Tok.File)],
  InFileNext: [eofPop(), r(T.AscLet, '', A_CLEAR, 'InFile'), r(T.Digit, '', A_CLEAR, 'InFile'),
    eq('_', A_CLEAR, 'InFile'), pop()],
  InURLPathFirst: [eofPop(), r(T.UrlChar, '', N, 'InURLPath'), pop()],
  InURLPathStart: [any(N, 'InURLPath')],
  InURLPath: [eof(B, 'Base', Tok.UrlPath), r(T.UrlChar, '', N, 'InURLPath'), any(B, 'Base', Tok.UrlPath)],
  InFURL: [eofPop(), r(T.IsUrlPath, '', B | A_CLRALL, 'Base', Tok.Url, Sp.FUrl), pop()],
  InProtocolFirst: [eofPop(), eq('/', N, 'InProtocolSecond'), pop()],
  InProtocolSecond: [eofPop(), eq('/', N, 'InProtocolEnd'), pop()],
  InProtocolEnd: [any(B | A_CLRALL, 'Base', Tok.Protocol)],
  InHyphenAsciiWordFirst: [eofPop(), r(T.AscLet, '', N, 'InHyphenAsciiWord'), r(T.Alpha, '', N, 'InHyphenWord'),
    r(T.Digit, '', N, 'InHyphenDigitLookahead'), pop()],
  InHyphenAsciiWord: [eof(B | A_CLRALL, 'InParseHyphen', Tok.AsciiHWord, Sp.Hyphen),
    r(T.AscLet, '', N, 'InHyphenAsciiWord'), r(T.Alpha, '', N, 'InHyphenWord'),
    r(T.Special, '', N, 'InHyphenWord'), r(T.Digit, '', N, 'InHyphenNumWord'),
    eq('-', P, 'InHyphenAsciiWordFirst'), any(B | A_CLRALL, 'InParseHyphen', Tok.AsciiHWord, Sp.Hyphen)],
  InHyphenWordFirst: [eofPop(), r(T.Alpha, '', N, 'InHyphenWord'), r(T.Digit, '', N, 'InHyphenDigitLookahead'), pop()],
  InHyphenWord: [eof(B | A_CLRALL, 'InParseHyphen', Tok.HWord, Sp.Hyphen), r(T.Alpha, '', N, 'InHyphenWord'),
    r(T.Special, '', N, 'InHyphenWord'), r(T.Digit, '', N, 'InHyphenNumWord'),
    eq('-', P, 'InHyphenWordFirst'), any(B | A_CLRALL, 'InParseHyphen', Tok.HWord, Sp.Hyphen)],
  InHyphenNumWordFirst: [eofPop(), r(T.Alpha, '', N, 'InHyphenNumWord'),
    r(T.Digit, '', N, 'InHyphenDigitLookahead'), pop()],
  InHyphenNumWord: [eof(B | A_CLRALL, 'InParseHyphen', Tok.NumHWord, Sp.Hyphen),
    r(T.Alnum, '', N, 'InHyphenNumWord'), r(T.Special, '', N, 'InHyphenNumWord'),
    eq('-', P, 'InHyphenNumWordFirst'), any(B | A_CLRALL, 'InParseHyphen', Tok.NumHWord, Sp.Hyphen)],
  InHyphenDigitLookahead: [eofPop(), r(T.Digit, '', N, 'InHyphenDigitLookahead'),
    r(T.Alpha, '', N, 'InHyphenNumWord'), r(T.Special, '', N, 'InHyphenNumWord'), pop()],
  InParseHyphen: [eof(A_RERUN, 'Base'), r(T.AscLet, '', N, 'InHyphenAsciiWordPart'),
    r(T.Alpha, '', N, 'InHyphenWordPart'), r(T.Digit, '', P, 'InHyphenUnsignedInt'),
    eq('-', P, 'InParseHyphenHyphen'), any(A_RERUN, 'Base')],
  InParseHyphenHyphen: [eofPop(), r(T.Alnum, '', B | A_CLEAR, 'InParseHyphen', Tok.Blank),
    r(T.Special, '', B | A_CLEAR, 'InParseHyphen', Tok.Blank), pop()],
  InHyphenWordPart: [eof(B, 'Base', Tok.HWordPart), r(T.Alpha, '', N, 'InHyphenWordPart'),
    r(T.Special, '', N, 'InHyphenWordPart'), r(T.Digit, '', N, 'InHyphenNumWordPart'),
    any(B, 'InParseHyphen', Tok.HWordPart)],
  InHyphenAsciiWordPart: [eof(B, 'Base', Tok.HWordAsciiPart), r(T.AscLet, '', N, 'InHyphenAsciiWordPart'),
    r(T.Alpha, '', N, 'InHyphenWordPart'), r(T.Special, '', N, 'InHyphenWordPart'),
    r(T.Digit, '', N, 'InHyphenNumWordPart'), any(B, 'InParseHyphen', Tok.HWordAsciiPart)],
  InHyphenNumWordPart: [eof(B, 'Base', Tok.HWordNumPart), r(T.Alnum, '', N, 'InHyphenNumWordPart'),
    r(T.Special, '', N, 'InHyphenNumWordPart'), any(B, 'InParseHyphen', Tok.HWordNumPart)],
  InHyphenUnsignedInt: [eofPop(), r(T.Digit, '', N, ''), r(T.Alpha, '', A_CLEAR, 'InHyphenNumWordPart'),
    r(T.Special, '', A_CLEAR, 'InHyphenNumWordPart'), pop()],
};

// Flattened into typed arrays: the interpreter indexes rules by number and, after a POP,
// resumes at "the rule after the one that pushed", exactly like PostgreSQL's pushedAtAction.
const allRules: Rule[] = [];
export const STATE_FIRST_RULE = new Int32Array(STATE_COUNT);
STATE_NAMES.forEach((name, i) => {
  STATE_FIRST_RULE[i] = allRules.length;
  allRules.push(...TABLE[name]);
});
export const RULE_TEST = Uint8Array.from(allRules, (x) => x[0]);
export const RULE_CHAR = Int32Array.from(allRules, (x) => (x[1] === '' ? -1 : x[1].charCodeAt(0)));
export const RULE_FLAGS = Uint8Array.from(allRules, (x) => x[2]);
export const RULE_TO = Int32Array.from(allRules, (x) => (x[3] === '' ? -1 : stateId(x[3])));
export const RULE_TYPE = Uint8Array.from(allRules, (x) => x[4]);
export const RULE_SPECIAL = Uint8Array.from(allRules, (x) => x[5]);
