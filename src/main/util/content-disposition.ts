/**
 * A `Content-Disposition` value for any file name (RFC 6266): the name percent-encoded as UTF-8
 * in `filename*`, an ASCII stand-in in `filename` for old clients. Nothing of the name reaches
 * the header raw, so quotes, line breaks or non-Latin-1 letters cannot break it.
 */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
