import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dumpPath } from '../../api/urls';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { dumpPairs, type DumpOptions, type SearchShape } from '../table/view-state';
import { SidePanel } from '../../components/SidePanel';
import { exportName } from './export-name';

/** Where a view other than the table downloads from (the Changes view), and its file's name. */
export interface ExportTarget {
  readonly href: (format: 'csv' | 'json', options: DumpOptions) => string;
  readonly suggestedName: string;
}

type Props = {
  readonly rows: number | null;
  readonly onClose: () => void;
} & (
  | {
      readonly shape: SearchShape;
      /** The resource's title, the start of the file name. */
      readonly fileBase: string;
    }
  | { readonly target: ExportTarget }
);

/** What the `download` attribute asks for; the server's Content-Disposition (same name, cleaned) decides. */
const localName = (name: string, ext: string): string => `${name.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'export'}.${ext}`;

/**
 * Downloads of exactly what the table shows: the same search, filters, sort and columns,
 * through CKAN's dump endpoint, which streams page by page. Named after the resource and what
 * narrows it (editable); CSV as most programs read it, or for Excel set to Italian
 * (`;` between columns, decimal comma), or JSON.
 */
export function ExportPanel(props: Props) {
  const { rows, onClose } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [bom, setBom] = useState(false);
  const suggested =
    'target' in props
      ? props.target.suggestedName
      : exportName(props.fileBase, props.shape.view, { empty: t('filter.empty'), notEmpty: t('filter.notEmptyChoice') });
  const [edited, setEdited] = useState<string | null>(null);
  const name = edited ?? suggested;
  const href = (format: 'csv' | 'json', options: DumpOptions) =>
    'target' in props
      ? props.target.href(format, { ...options, fileName: name })
      : dumpPath(props.shape.resourceId, dumpPairs(props.shape, format, { ...options, fileName: name }));
  return (
    <SidePanel title={t('export.title')} testId="export-panel" onClose={onClose}>
      <p>{rows === null ? t('common.loading') : t('export.what', { count: rows, n: formatCount(rows, locale) })}</p>
      <div className="option">
        <label htmlFor={`${id}-name`}>{t('export.fileName')}</label>
        <input id={`${id}-name`} type="text" value={name} onChange={(e) => setEdited(e.target.value)} data-testid="export-name" />
      </div>
      <h3 className="export-kind">{t('export.csvTitle')}</h3>
      <div className="checkbox-row">
        <input type="checkbox" id={`${id}-bom`} checked={bom} onChange={(e) => setBom(e.target.checked)} data-testid="export-bom" />
        <label htmlFor={`${id}-bom`}>{t('export.bom')}</label>
      </div>
      <p className="muted small">{t('export.bomHelp')}</p>
      <div className="button-row">
        <a className="button button-primary" href={href('csv', { bom })} download={localName(name, 'csv')} data-testid="export-csv">
          {t('export.csv')}
        </a>
      </div>
      <h3 className="export-kind">{t('export.excelItTitle')}</h3>
      <p className="muted small">{t('export.excelItHelp')}</p>
      <div className="button-row">
        <a
          className="button"
          href={href('csv', { dialect: 'excel-it' })}
          download={localName(name, 'csv')}
          data-testid="export-csv-excel-it"
        >
          {t('export.excelIt')}
        </a>
      </div>
      <h3 className="export-kind">{t('export.jsonTitle')}</h3>
      <div className="button-row">
        <a className="button" href={href('json', {})} download={localName(name, 'json')} data-testid="export-json">
          {t('export.json')}
        </a>
      </div>
    </SidePanel>
  );
}
