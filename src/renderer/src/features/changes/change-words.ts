/**
 * How the Changes feature says its counts and versions in the user's language: "3 added,
 * 1 removed, 2 changed since 27 Nov 2026, 19:25" (each count with its own plural form), and
 * a kept version as one line of the version picker.
 */
import type { TFunction } from 'i18next';
import type { ChangeCounts, ResourceVersion } from '../../../../shared/wire/versions';
import { formatInstant } from '../../format/date';
import { formatBytes, formatCount } from '../../format/number';

/** "3 added, 1 removed, 2 changed". */
export function countsText(t: TFunction, counts: ChangeCounts, locale: string): string {
  return (['added', 'removed', 'changed'] as const)
    .map((kind) => t(`changes.count.${kind}`, { count: counts[kind], n: formatCount(counts[kind], locale) }))
    .join(t('changes.listSeparator'));
}

/** "3 added, 1 removed, 2 changed since <date>", or that nothing changed since then. */
export function sinceText(t: TFunction, counts: ChangeCounts, since: string, locale: string): string {
  const date = formatInstant(since, locale);
  if (counts.added + counts.removed + counts.changed === 0) return t('changes.nothingSince', { date });
  return t('changes.since', { counts: countsText(t, counts, locale), date });
}

/** "Version 3 · 27 Nov 2026, 19:25 · sync · 4 rows · 12 kB (current)". */
export function versionLabel(t: TFunction, v: ResourceVersion, locale: string): string {
  return t(v.current ? 'changes.versionCurrent' : 'changes.version', {
    version: v.version,
    date: formatInstant(v.created, locale),
    source: t(`changes.source.${v.source}`),
    rows: t('changes.rows', { count: v.rows, n: formatCount(v.rows, locale) }),
    size: formatBytes(v.size_bytes, locale),
  });
}
