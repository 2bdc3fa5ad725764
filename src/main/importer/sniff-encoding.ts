/**
 * Character-encoding detection and decoding for CSV imports.
 *
 * Italian PA exports come either as UTF-8 (often with a BOM, from Excel) or as Windows-1252
 * (ISTAT). The rule is deliberately simple: a BOM wins; bytes that are valid UTF-8 are UTF-8
 * (cp1252 text with accents is practically never valid UTF-8 by accident); anything else is
 * Windows-1252. Decoding goes through iconv-lite, because Node 20's
 * `TextDecoder('windows-1252')` decodes 0x80–0x9F as ISO-8859-1 C1 control characters
 * (checked on 20.20: 0x8A gives U+008A instead of `Š`).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { openByteStream, readFirstBytes, type ContentMeter } from './file-source';
import { message } from '../../shared/messages';
import { ImportInputError } from './import-errors';
import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';

export type DetectedEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export interface EncodingGuess {
  /** `utf-16le`/`utf-16be` only when the file starts with a UTF-16 BOM (Excel "Unicode text"). */
  encoding: DetectedEncoding;
  bom: boolean;
  /** Why: a BOM, all-ASCII sample, valid UTF-8 with non-ASCII bytes, or invalid UTF-8. */
  confidence: 'bom' | 'valid-utf8' | 'invalid-utf8' | 'ascii';
}

/** How many bytes the pipeline should read for sniffing (encoding and dialect). */
export const SAMPLE_BYTES = 64 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Number of bytes a UTF-8 sequence starting with `lead` has, or 0 if `lead` cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0; // continuation byte, overlong lead (C0/C1) or beyond U+10FFFF
}

/**
 * Length of an incomplete multi-byte sequence at the very end of `bytes` (0 if none). Only
 * the lead byte's announced length is checked here; whether the bytes form a valid sequence
 * is decided once the rest arrives.
 */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let i = end - 1; i >= 0 && i >= end - 3; i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = sequenceLength(b);
    return need > end - i ? end - i : 0;
  }
  return 0;
}

/**
 * Guesses the encoding of the first bytes of a file. `isWholeFile` says the sample is the
 * entire file: only then is a multi-byte sequence cut at the end an error, otherwise it is
 * the sample boundary.
 */
export function detectEncoding(sample: Buffer, isWholeFile: boolean): EncodingGuess {
  if (sample.length >= 3 && sample[0] === UTF8_BOM[0] && sample[1] === UTF8_BOM[1] && sample[2] === UTF8_BOM[2]) {
    return { encoding: 'utf-8', bom: true, confidence: 'bom' };
  }
  if (sample.length >= 2 && sample[0] === 0xff && sample[1] === 0xfe) {
    return { encoding: 'utf-16le', bom: true, confidence: 'bom' };
  }
  if (sample.length >= 2 && sample[0] === 0xfe && sample[1] === 0xff) {
    return { encoding: 'utf-16be', bom: true, confidence: 'bom' };
  }
  if (isAscii(sample)) return { encoding: 'utf-8', bom: false, confidence: 'ascii' };
  const checked = isWholeFile ? sample : sample.subarray(0, sample.length - incompleteUtf8Tail(sample));
  if (isUtf8(checked)) return { encoding: 'utf-8', bom: false, confidence: 'valid-utf8' };
  return { encoding: 'windows-1252', bom: false, confidence: 'invalid-utf8' };
}

/** Thrown for an `--encoding` name iconv-lite does not know. */
export class UnknownEncodingError extends ImportInputError {
  readonly code = 'UNKNOWN_ENCODING' as const;
  constructor(readonly encoding: string) {
    super(
      message(
        'import.refused.unknown_encoding',
        `Unknown encoding ${JSON.stringify(encoding)}: use a name such as utf-8, windows-1252, ` +
          'latin1 (iso-8859-1), iso-8859-15 or utf-16le',
        { encoding },
      ),
    );
  }
}

/** Checks an encoding name (ours or the user's) and returns it in the form iconv-lite takes. */
export function resolveEncoding(encoding: string): string {
  const name = encoding.trim();
  if (name === '' || !iconv.encodingExists(name)) throw new UnknownEncodingError(encoding);
  return name;
}

/**
 * Decodes a sniffing sample: BOM removed, and (for a partial sample) a character cut at the
 * end dropped instead of becoming U+FFFD.
 */
export function decodeSample(sample: Buffer, encoding: string, isWholeFile: boolean): string {
  const name = resolveEncoding(encoding);
  let bytes = sample;
  if (!isWholeFile && name.toLowerCase().replace(/[^a-z0-9]/g, '') === 'utf8') {
    bytes = sample.subarray(0, sample.length - incompleteUtf8Tail(sample));
  }
  let text = iconv.decode(bytes, name, { stripBOM: true });
  // A partial UTF-16 sample can end in half a code unit or a lone high surrogate.
  if (!isWholeFile && /[\ud800-\udbff\ufffd]$/.test(text)) text = text.slice(0, -1);
  return text;
}

/** Reads the first `bytes` of a file for sniffing; `isWholeFile` is true if that was all of it. */
export async function readSample(path: string, bytes = SAMPLE_BYTES): Promise<{ sample: Buffer; isWholeFile: boolean }> {
  return readFirstBytes(path, bytes);
}

/**
 * A readable stream of the file's text as JavaScript strings (object mode: every chunk is a
 * non-empty string), for papaparse, which needs string chunks. iconv-lite's decoder keeps a
 * character split across two read chunks until its last byte arrives, so no chunk ends in a
 * broken character. A BOM is removed when reading from the start of the file; with
 * `start > 0` nothing is removed (the caller must start on a character boundary).
 * Accepts any iconv-lite encoding name; throws UnknownEncodingError for others.
 */
/** Bytes decoded and characters produced so far: converts a parser's character position to bytes. */
export interface DecodeCounter {
  bytes: number;
  chars: number;
  /** The decoder produced U+FFFD somewhere (a byte it could not read, or the character itself). */
  replacement?: boolean;
}

export function openDecodedStream(
  path: string,
  encoding: DetectedEncoding | string,
  opts: { start?: number; highWaterMark?: number; meter?: ContentMeter; counter?: DecodeCounter } = {},
): NodeJS.ReadableStream {
  const name = resolveEncoding(encoding);
  const start = opts.start ?? 0;
  const decoder = iconv.getDecoder(name, { stripBOM: start === 0 });
  const source =
    start === 0
      ? openByteStream(path, opts.highWaterMark ?? 256 * 1024, opts.meter)
      : createReadStream(path, { start, highWaterMark: opts.highWaterMark ?? 256 * 1024 });
  const counter = opts.counter;
  const output = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback) {
      const text = decoder.write(chunk);
      if (counter) {
        counter.bytes += chunk.length;
        counter.chars += text.length;
        if (!counter.replacement && text.includes('\uFFFD')) counter.replacement = true;
      }
      if (text) this.push(text);
      callback();
    },
    flush(callback: TransformCallback) {
      const rest = decoder.end();
      if (rest) this.push(rest);
      callback();
    },
  });
  // pipe() does not forward errors: a missing or unreadable file must fail the consumer.
  source.on('error', (err: Error) => output.destroy(err));
  output.on('close', () => source.destroy());
  return source.pipe(output);
}

/** Streaming UTF-8 check for the whole file, fed with the raw byte chunks of pass 1. */
export interface Utf8Validator {
  /** Feeds the next bytes; returns false once the data seen so far is known to be invalid. */
  push(chunk: Uint8Array): boolean;
  /** Ends the input; false if any byte was invalid or the file ends inside a character. */
  end(): boolean;
  /** Byte offset of the first chunk found invalid (the offending byte is in that chunk), or -1. */
  readonly invalidAt: number;
}

/**
 * What the pipeline does when the sample looked like UTF-8 but the file is not
 * (`UTF8_INVALID_LATER`): it feeds every raw chunk of pass 1 to this validator (a native
 * `isUtf8` call per chunk, far cheaper than the CSV parse) and, if `end()` or a `push()`
 * returns false, discards what it built and restarts the import as windows-1252. The decoded
 * text of a UTF-8 pass is not trustworthy by then: invalid bytes became U+FFFD.
 */
export const UTF8_INVALID_LATER = 'The sample was valid UTF-8 but a later byte is not: restart the import as windows-1252.';

export function createUtf8Validator(): Utf8Validator {
  let carry: Uint8Array = new Uint8Array(0); // an incomplete character from the previous chunk
  let offset = 0; // bytes consumed before `carry`
  let invalidAt = -1;
  return {
    push(chunk: Uint8Array): boolean {
      if (invalidAt >= 0) return false;
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const tail = incompleteUtf8Tail(bytes);
      const body = bytes.subarray(0, bytes.length - tail);
      if (!isUtf8(body)) {
        invalidAt = offset;
        return false;
      }
      offset += body.length;
      carry = Uint8Array.from(bytes.subarray(bytes.length - tail));
      return true;
    },
    end(): boolean {
      if (invalidAt < 0 && carry.length) invalidAt = offset;
      return invalidAt < 0;
    },
    get invalidAt() {
      return invalidAt;
    },
  };
}
