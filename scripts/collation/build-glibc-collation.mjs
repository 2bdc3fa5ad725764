#!/usr/bin/env node
// Builds src/main/engine/collation/glibc-table.ts: the weights of glibc's `en_US.UTF-8` collation
// (the locale production CKAN sites give PostgreSQL, so `ORDER BY name` on the portal follows it).
//
//   node scripts/collation/build-glibc-collation.mjs [LOCALES_DIR]   (default /usr/share/i18n/locales)
//
// en_US's LC_COLLATE is `copy "iso14651_t1"`, which is `copy "iso14651_t1_common"` plus the core
// Han range; both files come with glibc's locale sources (Debian: package `locales`). "The Free
// Software Foundation does not claim any copyright interest in the locale data contained in this
// file" (their header). What this does is what glibc's `localedef` (locale/programs/ld-collate.c)
// does with them:
//
// - every line of the order (collating symbols, then the characters section by section, in file
//   order) is one element of one list; the `ifdef DIACRIT_BACKWARD` branch is not taken;
// - a weight names an element (`<S0061>`, `<BASE>`, `<MIN>`, `<U0061>`, a quoted string of
//   several, `IGNORE`, or `..` = the element itself in an ellipsis range);
// - per level, the elements named as weights at that level are numbered in list order from 1
//   (ld-collate's `mborder`); only their order matters, since strcoll compares them as numbers;
// - each character or collating element (contraction) keeps its weights per level and its
//   section's rules (only the first section, <SPECIAL>, is `backward` at level 2; characters the
//   table does not define use that same first ruleset and a weight after every other one).
//
// The output is a base64 string of Brotli-compressed varints (the format is read back, and
// described, in src/main/engine/collation/glibc-table.ts's reader, glibc-collation.ts), so the
// engine and SQL workers bundle it without a file to find at run time.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const localesDir = process.argv[2] ?? '/usr/share/i18n/locales';
const outFile = join(root, 'src/main/engine/collation/glibc-table.ts');
const LEVELS = 4;

const commonText = readFileSync(join(localesDir, 'iso14651_t1_common'), 'utf8');
const t1Text = readFileSync(join(localesDir, 'iso14651_t1'), 'utf8');
const enUsText = readFileSync(join(localesDir, 'en_US'), 'utf8');
if (!/LC_COLLATE\s+(?:%[^\n]*\n\s*)*copy "iso14651_t1"/.test(enUsText)) throw new Error('en_US does not copy iso14651_t1');

/** Element names → code points: <U0061>, <U0001D41A>, or a collating element's declared sequence. */
const contractions = new Map();
const elements = []; // list order: { name, codePoints|null, weights: string[][] per level | null (self), section }
const byName = new Map();
const sections = []; // { name, backward: boolean[] }

function codePointsOfName(name) {
  const m = /^<U([0-9A-F]{4,8})>$/.exec(name);
  if (m) return [parseInt(m[1], 16)];
  return contractions.get(name) ?? null;
}

function stripComment(line) {
  // comment_char is %, escape_char is /; names and weights never hold either.
  const i = line.indexOf('%');
  return (i < 0 ? line : line.slice(0, i)).trim();
}

/** `"<A><B>"`, `<A>`, `IGNORE` or `..` → list of names ('' for IGNORE). */
function parseWeight(field) {
  if (field === 'IGNORE') return [];
  if (field === '..') return ['..'];
  const inner = field.startsWith('"') ? field.slice(1, -1) : field;
  const names = inner.match(/<[^>]+>/g);
  if (!names || names.join('') !== inner) throw new Error(`cannot read weight ${field}`);
  return names;
}

function addElement(name, weights, section) {
  if (byName.has(name)) throw new Error(`order for ${name} defined twice`);
  const element = { name, codePoints: codePointsOfName(name), weights, section, position: elements.length };
  elements.push(element);
  byName.set(name, element);
  return element;
}

function readOrder(text, { allowSymbolsBeforeSections }) {
  let section = null;
  let skipping = false;
  let previous = null;
  for (const raw of text.split('\n')) {
    const line = stripComment(raw);
    if (!line) continue;
    if (line === 'ifdef DIACRIT_BACKWARD') { skipping = true; continue; }
    if (line === 'else') { skipping = false; continue; }
    if (line === 'endif') continue;
    if (skipping) continue;
    const words = line.split(/\s+/);
    switch (words[0]) {
      case 'collating-element': {
        const m = /^collating-element (<[^>]+>) from "((?:<U[0-9A-F]+>)+)"$/.exec(line);
        if (!m) throw new Error(`cannot read ${line}`);
        contractions.set(m[1], m[2].match(/<U[0-9A-F]+>/g).map((n) => parseInt(n.slice(2, -1), 16)));
        continue;
      }
      case 'order_start': {
        const [name, ...rules] = words.slice(1).join(' ').split(';');
        if (rules.length !== LEVELS) throw new Error(`expected ${LEVELS} rules: ${line}`);
        section = { name, backward: rules.map((r) => r.split(',').includes('backward')), position: rules.map((r) => r.split(',').includes('position')) };
        sections.push(section);
        continue;
      }
      case 'order_end':
        section = null;
        continue;
      case 'escape_char': case 'comment_char': case 'LC_COLLATE': case 'END': case 'collating-symbol': case 'script': case 'copy':
        continue;
    }
    if (!line.startsWith('<') && !line.startsWith('..')) throw new Error(`unexpected line: ${line}`);
    if (!section && !allowSymbolsBeforeSections) throw new Error(`element outside a section: ${line}`);
    const name = words[0];
    const rest = words.slice(1).join(' ');
    const weights = rest ? rest.split(';').map(parseWeight) : null;
    if (weights && weights.length !== LEVELS) throw new Error(`expected ${LEVELS} weights: ${line}`);
    if (name === '..') {
      // An ellipsis between the previous and the next line: every code point in between, with
      // these weights, `..` standing for the element itself (ld-collate's handle_ellipsis).
      previous = { ellipsis: weights, after: previous, section };
      continue;
    }
    if (previous?.ellipsis) {
      const from = codePointsOfName(previous.after.name)[0];
      const to = codePointsOfName(name)[0];
      for (let cp = from + 1; cp < to; cp++) {
        const self = `<U${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
        addElement(self, previous.ellipsis.map((w) => w.map((n) => (n === '..' ? self : n))), previous.section);
      }
    }
    previous = addElement(name, weights, section);
  }
}

readOrder(commonText, { allowSymbolsBeforeSections: true });
const t1Collate = /LC_COLLATE([\s\S]*?)END LC_COLLATE/.exec(t1Text)[1];
readOrder(t1Collate, { allowSymbolsBeforeSections: false });

// Per level, number the elements used as weights in list order (ld-collate's mborder).
const ranks = Array.from({ length: LEVELS }, () => new Map());
const stringElements = elements.filter((e) => e.codePoints !== null);
for (const e of stringElements) {
  const weights = e.weights ?? Array.from({ length: LEVELS }, () => [e.name]);
  e.resolved = weights;
  weights.forEach((names, level) => {
    for (const n of names) {
      const target = byName.get(n);
      if (!target) throw new Error(`weight ${n} of ${e.name} has no place in the order`);
      ranks[level].set(target, 0);
    }
  });
}
const rankCounts = ranks.map((used) => {
  const ordered = [...used.keys()].sort((a, b) => a.position - b.position);
  ordered.forEach((target, i) => used.set(target, i + 1));
  return ordered.length;
});

// The rulesets, unified as ld-collate does (sections with equal rules share one); the first
// one is also the ruleset of characters the table does not define.
const rulesets = [];
const rulesetOf = new Map();
for (const s of sections) {
  const key = JSON.stringify(s.backward);
  if (!rulesetOf.has(key)) {
    rulesetOf.set(key, rulesets.length);
    rulesets.push(s.backward);
  }
  s.ruleset = rulesetOf.get(key);
}
if (!sections.every((s) => JSON.stringify(s.position) === JSON.stringify([false, false, false, true])))
  throw new Error('expected `position` at the fourth level only, in every section');

// The run-time key leaves out PostgreSQL's final strcmp tie-break unless a string holds an
// element that may share all four levels with another: a character the table does not define,
// or one of the few elements whose weights equal another's (`l·` spelt as two characters and
// `ŀ`). Otherwise each element's fourth-level weights tell it apart (a character is its own
// weight, a contraction's list of several is unique), and an element ignored at the fourth
// level is told apart by its first (the Han range: itself).
const byFourth = new Map();
for (const e of stringElements) {
  const key = e.resolved[3].join('');
  if (key === '') {
    if (e.resolved[0].length !== 1 || e.resolved[0][0] !== e.name) throw new Error(`${e.name}: ignored at level 4 and not its own level-1 weight`);
    continue;
  }
  if (e.codePoints.length === 1 && key !== e.name) throw new Error(`${e.name}: level-4 weight is not the character itself`);
  byFourth.set(key, [...(byFourth.get(key) ?? []), e]);
}
for (const group of byFourth.values()) if (group.length > 1) for (const e of group) e.tieBreak = true;

// Entries sorted by code points so the run-time decoder can delta-code the first one.
const entries = stringElements
  .map((e) => ({ codePoints: e.codePoints, flags: e.section.ruleset | (e.tieBreak ? 0x10 : 0), weights: e.resolved.map((names, level) => names.map((n) => ranks[level].get(byName.get(n)))) }))
  .sort((a, b) => a.codePoints[0] - b.codePoints[0] || b.codePoints.length - a.codePoints.length || cmpArrays(a.codePoints, b.codePoints));

function cmpArrays(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const bytes = [];
const varint = (n) => {
  if (!Number.isInteger(n) || n < 0) throw new Error(`bad varint ${n}`);
  while (n >= 0x80) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
};
varint(1); // format version
varint(LEVELS);
rankCounts.forEach((n) => varint(n));
varint(rulesets.length);
for (const r of rulesets) varint(r.reduce((bits, backward, level) => bits | (backward ? 1 << level : 0), 0));
varint(entries.length);
let previousFirst = 0;
for (const e of entries) {
  varint(e.codePoints.length);
  varint(e.codePoints[0] - previousFirst);
  previousFirst = e.codePoints[0];
  for (const cp of e.codePoints.slice(1)) varint(cp);
  varint(e.flags); // ruleset | 0x10 when the element needs the tie-break
  for (const level of e.weights) {
    varint(level.length);
    let previous = 0;
    for (const r of level) {
      // Zig-zag deltas: expansions step up and down within one level.
      const d = r - previous;
      varint(d >= 0 ? d * 2 : -d * 2 - 1);
      previous = r;
    }
  }
}

// Brotli (Node's zlib has it in every worker): 620 KB of varints become ~75 KB.
const base64 = brotliCompressSync(Buffer.from(bytes), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
const sha = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
let glibc = 'unknown';
try {
  glibc = execFileSync('ldd', ['--version'], { encoding: 'utf8' }).split('\n')[0];
} catch {
  /* not glibc: the version line is informative only */
}
const lines = base64.match(/.{1,120}/g);
writeFileSync(
  outFile,
  `// Generated by scripts/collation/build-glibc-collation.mjs — do not edit.
// glibc's en_US.UTF-8 collation weights, from ${localesDir}/iso14651_t1_common (sha256 ${sha(commonText)}…)
// and iso14651_t1 (sha256 ${sha(t1Text)}…), ${glibc}. ${entries.length} entries, ranks per level ${rankCounts.join('/')}.
// Read by glibc-collation.ts, which describes the format.
export const GLIBC_TABLE_BASE64 =
${lines.map((l, i) => `  '${l}'${i === lines.length - 1 ? ';' : ' +'}`).join('\n')}
`,
);
console.log(`${outFile}: ${entries.length} entries, ${bytes.length} bytes (${base64.length} base64), ranks ${rankCounts.join('/')}, rulesets ${JSON.stringify(rulesets)}`);
