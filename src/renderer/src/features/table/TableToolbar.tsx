import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { sqlPath } from '../../router';
import { SearchBox } from './SearchBox';
import type { TablePageState } from './use-table-page';
import { ViewSwitch } from './ViewSwitch';

interface Props {
  readonly resourceId: string;
  readonly page: TablePageState;
  /** Columns hidden from the grid (the Columns button says how many). */
  readonly hiddenCount: number;
  /** What a search matches, for the search box's description. */
  readonly searchHelpId: string;
}

/** The search box, table/chart/map, and the buttons that open the table's panels. */
export function TableToolbar({ resourceId, page, hiddenCount, searchHelpId }: Props) {
  const { t } = useTranslation();
  const { view, panel } = page;
  const conditions = view.conditions ?? [];
  const panelButton = (name: Exclude<typeof panel, null>, caption: string) => (
    <button
      type="button"
      className="button"
      aria-pressed={panel === name}
      onClick={() => page.togglePanel(name)}
      data-testid={`open-${name}`}
    >
      {caption}
    </button>
  );
  return (
    <div className="toolbar">
      <SearchBox key={resourceId} value={view.q} onCommit={page.commitSearch} helpId={searchHelpId} />
      <div className="toolbar-buttons">
        <ViewSwitch mode={page.mode} onMode={page.setMode} />
        {panelButton('conditions', conditions.length ? t('conditions.buttonActive', { count: conditions.length }) : t('conditions.button'))}
        {panelButton('profile', t('profile.button'))}
        <a className="button" href={`#${sqlPath(resourceId)}`} data-testid="open-sql">
          {t('sql.button')}
        </a>
        {panelButton('columns', hiddenCount > 0 ? t('columns.buttonHidden', { count: hiddenCount }) : t('columns.button'))}
        {panelButton('export', t('export.button'))}
        {panelButton('api', t('apiPanel.button'))}
        <CopyButton
          text={window.location.href}
          label={t('table.copyLinkLabel')}
          caption={t('table.copyLink')}
          className="button"
          testId="copy-link"
        />
      </div>
    </div>
  );
}
