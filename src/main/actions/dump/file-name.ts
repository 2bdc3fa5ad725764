/**
 * The name of a downloaded dump and the `Content-Disposition` header that carries it. The
 * name is built from the resource's name and the filter, or taken from the request, so it
 * contains whatever a user typed: it is reduced to what every file system accepts, and sent
 * as RFC 6266 `filename*` (UTF-8, percent-encoded) with an ASCII `filename` for old clients.
 * Nothing from the request ever reaches the header unencoded.
 */

const MAX_NAME_CHARS = 120;

/** Characters Windows, macOS or Linux refuse in a file name, and control characters. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\/:*?"<>|]+/g;

export function cleanFileName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return [...cleaned].slice(0, MAX_NAME_CHARS).join('').trim();
}

function filterSummary(search: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  if (search.filters) {
    try {
      const filters: unknown = JSON.parse(search.filters);
      if (filters !== null && typeof filters === 'object' && !Array.isArray(filters)) {
        for (const [column, value] of Object.entries(filters)) {
          const shown = Array.isArray(value)
            ? value.map(String).join('+')
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
          parts.push(`${column}=${shown}`);
        }
      }
    } catch {
      // the search itself reports bad filters; a name needs none
    }
  }
  // The UI sends prefix searches as `word:*` tsqueries: the words are what the user typed.
  const q = (search.q ?? '')
    .replace(/:\*/g, '')
    .replace(/[&|!()<>]+/g, ' ')
    .trim();
  if (q) parts.push(q);
  return parts.join(', ');
}

/**
 * `<resource name> (<filter>).<ext>`, or the name the client asked for (its extension added
 * if missing), falling back to the resource id as CKAN names dumps.
 */
export function dumpFileName(options: {
  readonly requested: string | null;
  readonly resourceName: string;
  readonly resourceId: string;
  readonly search: Readonly<Record<string, string>>;
  readonly extension: string;
}): string {
  const ext = `.${options.extension}`;
  if (options.requested !== null) {
    const requested = cleanFileName(options.requested);
    if (requested) return requested.toLowerCase().endsWith(ext) ? requested : `${requested}${ext}`;
  }
  const base = cleanFileName(options.resourceName) || cleanFileName(options.resourceId) || 'dump';
  const summary = cleanFileName(filterSummary(options.search));
  return `${cleanFileName(summary ? `${base} (${summary})` : base) || base}${ext}`;
}

export { contentDisposition } from '../../util/content-disposition';
