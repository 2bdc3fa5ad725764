import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ImportInputError } from './import-errors';
import { arrayItems } from '../util/json-source';

/**
 * Reads a DataStore JSON dump (`{"fields": [...], "records": [[...], ...]}`: the shape of
 * `/datastore/dump/<id>?format=json`, and of the rows a mirror writes from a portal's pages)
 * without holding it in memory: the text is scanned once for the boundaries of each record
 * (strings and escapes respected), and each record is handed over as the source text of its
 * values, undecoded (importer/portal-cells.ts decodes each by its column's type, so `310.00`
 * keeps its scale). The boundaries do not depend on the layout.
 */
export interface JsonDumpHeader {
  readonly fields: readonly { id: string; type?: string }[];
}

export async function readJsonDump(
  path: string,
  onHeader: (header: JsonDumpHeader) => void,
  onRecord: (record: string[]) => void,
  signal?: AbortSignal,
): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Text of the top-level object outside `records`, to read `fields` from. */
  let head = '';
  let key = '';
  let keyStart = -1;
  let inRecords = false;
  let recordsDone = false;
  let pending = '';
  let recordStart = -1;
  let records = 0;
  let headerSent = false;

  const sendHeader = (): void => {
    if (headerSent) return;
    headerSent = true;
    let fields: unknown;
    try {
      // `head` holds `{"fields": [...], "records": ` (or the whole object when records came first).
      const m = /"fields"\s*:\s*(\[[\s\S]*\])\s*,?\s*"records"\s*:\s*$/.exec(head) ?? /"fields"\s*:\s*(\[[\s\S]*?\])\s*[,}]/.exec(head);
      fields = m ? JSON.parse(m[1]!) : undefined;
    } catch {
      fields = undefined;
    }
    if (!Array.isArray(fields)) throw new ImportInputError('The DataStore dump has no "fields" list before its records.');
    onHeader({ fields: fields as JsonDumpHeader['fields'] });
  };

  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    if (signal?.aborted) throw new DOMException('The import was cancelled', 'AbortError');
    const text = decoder.write(chunk as Buffer);
    let i = 0;
    const n = text.length;
    if (!inRecords) {
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92) escaped = true;
          else if (c === 34) {
            inString = false;
            if (depth === 1 && keyStart >= 0) key = (head + text.slice(0, i + 1)).slice(keyStart);
          }
          continue;
        }
        if (c === 34) {
          inString = true;
          keyStart = depth === 1 ? head.length + i : -1;
        } else if (c === 91 || c === 123) {
          depth++;
          if (c === 91 && depth === 2 && key === '"records"' && !recordsDone) {
            head += text.slice(0, i);
            inRecords = true;
            i++;
            break;
          }
        } else if (c === 93 || c === 125) {
          depth--;
        }
      }
      if (!inRecords) {
        head += text; // a key cut by the chunk's end is completed from `head` next time
        continue;
      }
      sendHeader();
    }
    // Inside `records`: depth 2 is between records; a record is an array at depth 3.
    let start = i;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
        continue;
      }
      if (c === 34) inString = true;
      else if (c === 91 || c === 123) {
        if (depth === 2) {
          recordStart = i;
          pending = '';
          start = i;
        }
        depth++;
      } else if (c === 93 || c === 125) {
        depth--;
        if (depth === 2 && recordStart >= 0) {
          const json = pending + text.slice(start, i + 1);
          pending = '';
          recordStart = -1;
          if (json.charCodeAt(0) !== 91) throw new ImportInputError(`The DataStore dump's record ${records + 1} is not a list.`);
          let record: string[];
          try {
            record = arrayItems(json, 0).items.map(([from, to]) => json.slice(from, to));
          } catch {
            throw new ImportInputError(`The DataStore dump's record ${records + 1} is not valid JSON.`);
          }
          records++;
          onRecord(record);
        } else if (depth === 1) {
          inRecords = false;
          recordsDone = true;
          break;
        }
      }
    }
    if (recordStart >= 0) pending += text.slice(start);
    if (!inRecords && recordsDone) break;
  }
  if (!headerSent) sendHeader();
  if (!recordsDone) throw new ImportInputError(`The DataStore dump ended after ${records} records, before its end.`);
  return records;
}
