import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dumpPath } from '../../api/urls';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { dumpPairs, type SearchShape } from '../table/view-state';
import { SidePanel } from '../../components/SidePanel';

interface Props {
  readonly shape: SearchShape;
  readonly rows: number | null;
  readonly fileBase: string;
  readonly onClose: () => void;
}

/**
 * Downloads of exactly what the table shows: the same search, filters, sort and columns,
 * through CKAN's dump endpoint, which streams page by page.
 */
export function ExportPanel({ shape, rows, fileBase, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [bom, setBom] = useState(false);
  const safeName = fileBase.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'export';
  return (
    <SidePanel title={t('export.title')} testId="export-panel" onClose={onClose}>
      <p>{rows === null ? t('common.loading') : t('export.what', { count: rows, n: formatCount(rows, locale) })}</p>
      <div className="checkbox-row">
        <input type="checkbox" id={`${id}-bom`} checked={bom} onChange={(e) => setBom(e.target.checked)} data-testid="export-bom" />
        <label htmlFor={`${id}-bom`}>{t('export.bom')}</label>
      </div>
      <p className="muted small">{t('export.bomHelp')}</p>
      <div className="button-row">
        <a className="button button-primary" href={dumpPath(shape.resourceId, dumpPairs(shape, 'csv', bom))} download={`${safeName}.csv`}
          data-testid="export-csv">{t('export.csv')}</a>
        <a className="button" href={dumpPath(shape.resourceId, dumpPairs(shape, 'json', false))} download={`${safeName}.json`}
          data-testid="export-json">{t('export.json')}</a>
      </div>
    </SidePanel>
  );
}
