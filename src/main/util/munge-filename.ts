/**
 * CKAN's `munge_filename` (ckan/lib/munge.py): the name an uploaded file gets in its
 * resource's URL. Path dropped, lower-cased, Latin-1 letters spelled in ASCII and every other
 * non-ASCII character removed, only `a-z 0-9 _ . -` kept (spaces become `-`, runs of `-` one),
 * the extension kept to 21 characters and the whole to 3–100.
 */
const LATIN1: Readonly<Record<number, string>> = {
  0xc0: 'A',
  0xc1: 'A',
  0xc2: 'A',
  0xc3: 'A',
  0xc4: 'A',
  0xc5: 'A',
  0xc6: 'Ae',
  0xc7: 'C',
  0xc8: 'E',
  0xc9: 'E',
  0xca: 'E',
  0xcb: 'E',
  0xcc: 'I',
  0xcd: 'I',
  0xce: 'I',
  0xcf: 'I',
  0xd0: 'Th',
  0xd1: 'N',
  0xd2: 'O',
  0xd3: 'O',
  0xd4: 'O',
  0xd5: 'O',
  0xd6: 'O',
  0xd8: 'O',
  0xd9: 'U',
  0xda: 'U',
  0xdb: 'U',
  0xdc: 'U',
  0xdd: 'Y',
  0xde: 'th',
  0xdf: 'ss',
  0xe0: 'a',
  0xe1: 'a',
  0xe2: 'a',
  0xe3: 'a',
  0xe4: 'a',
  0xe5: 'a',
  0xe6: 'ae',
  0xe7: 'c',
  0xe8: 'e',
  0xe9: 'e',
  0xea: 'e',
  0xeb: 'e',
  0xec: 'i',
  0xed: 'i',
  0xee: 'i',
  0xef: 'i',
  0xf0: 'th',
  0xf1: 'n',
  0xf2: 'o',
  0xf3: 'o',
  0xf4: 'o',
  0xf5: 'o',
  0xf6: 'o',
  0xf8: 'o',
  0xf9: 'u',
  0xfa: 'u',
  0xfb: 'u',
  0xfc: 'u',
  0xfd: 'y',
  0xfe: 'th',
  0xff: 'y',
};

function asciiEquivalents(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const mapped = LATIN1[code];
    if (mapped !== undefined) out += mapped;
    else if (code < 0x80) out += ch;
  }
  return out;
}

export function mungeFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = asciiEquivalents(base.toLowerCase().trim())
    .replace(/[^a-zA-Z0-9_. -]/g, '')
    .replace(/ /g, '-')
    .replace(/-+/g, '-');
  const dot = cleaned.lastIndexOf('.');
  // os.path.splitext: a leading dot is part of the name, not an extension.
  const split = dot > 0 && !/^\.+$/.test(cleaned.slice(0, dot)) ? dot : -1;
  const ext = (split < 0 ? '' : cleaned.slice(split)).slice(0, 21);
  let name = split < 0 ? cleaned : cleaned.slice(0, split);
  const min = Math.max(1, 3 - ext.length);
  if (name.length < min) name += '_'.repeat(min - name.length);
  return name.slice(0, 100 - ext.length) + ext;
}
