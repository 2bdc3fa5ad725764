import { foldText } from '../../../../shared/fold-text';

/**
 * CKAN dataset names: 2–100 characters of lowercase a-z, 0-9, `-` and `_`. A title becomes
 * one by folding accents and replacing everything else with dashes. Pure.
 */
export function datasetNameFrom(title: string, suffix = ''): string {
  const base = foldText(title)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  const room = 100 - suffix.length;
  const trimmed = base.slice(0, room).replace(/[-_]+$/, '');
  const name = `${trimmed || 'dataset'}${suffix}`;
  return name.length >= 2 ? name : `${name}-data`;
}

/** `istat-elenco-comuni.csv` → `Istat elenco comuni`. */
export function titleFromFileName(fileName: string): string {
  const base = fileName
    .replace(/\.(csv|tsv|txt)(\.gz)?$/i, '')
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return base ? base.charAt(0).toUpperCase() + base.slice(1) : fileName;
}
