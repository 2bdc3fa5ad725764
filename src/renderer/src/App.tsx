import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFooter } from './components/AppFooter';
import { AppHeader } from './components/AppHeader';
import { CataloguePage } from './features/catalogue/CataloguePage';
import { ChangesPage } from './features/changes/ChangesPage';
import { SyncNotices } from './features/changes/SyncNotices';
import { ImportPage } from './features/import/ImportPage';
import { ImportProgressPage } from './features/import/ImportProgressPage';
import { offerFile } from './features/import/pending-file';
import { useWindowDrop } from './features/import/use-window-drop';
import { TablePage } from './features/table/TablePage';
import { PortalPage } from './features/portal/PortalPage';
import { PublishPage } from './features/publish/PublishPage';
import { RowPage } from './features/row/RowPage';
import { SqlPage } from './features/sql/SqlPage';
import { navigate, useRoute, type Route } from './router';

function Page({ route }: { readonly route: Route }) {
  const { t } = useTranslation();
  const [section, id, sub, subId] = route.segments;
  if (section === undefined) return <CataloguePage />;
  if (section === 'import' && id) return <ImportProgressPage key={id} resourceId={id} createdDataset={route.query.get('dataset')} />;
  if (section === 'import') {
    const replace = route.query.get('replace');
    return <ImportPage key={replace ?? ''} replaceId={replace} />;
  }
  if (section === 'portal') return <PortalPage />;
  if (section === 'publish' && id) return <PublishPage key={id} resourceId={id} />;
  if (section === 'resource' && id && sub === 'row' && subId && /^\d+$/.test(subId)) {
    return <RowPage key={`${id}/${subId}`} resourceId={id} rowId={Number(subId)} back={route.query} />;
  }
  if (section === 'resource' && id && sub === 'sql') return <SqlPage key={id} resourceId={id} query={route.query} />;
  if (section === 'resource' && id && sub === 'changes') return <ChangesPage key={id} resourceId={id} query={route.query} />;
  if (section === 'resource' && id && sub === undefined) return <TablePage key={id} resourceId={id} query={route.query} />;
  return (
    <div className="page">
      <h1 tabIndex={-1}>{t('notFound.title')}</h1>
      <p>
        <a href="#/">{t('nav.backToCatalogue')}</a>
      </p>
    </div>
  );
}

export function App() {
  const { t } = useTranslation();
  const route = useRoute();
  const onFile = useCallback(
    (file: File) => {
      offerFile(file);
      if (route.segments[0] !== 'import' || route.segments[1]) navigate('/import');
    },
    [route],
  );
  const dragging = useWindowDrop(onFile);

  // Moving to another screen moves focus to its heading, so keyboard and screen reader users
  // start there (not on the first load, and not when only the table's query changes). A screen
  // that loads first (a table) shows its heading a moment later: focus waits on <main> and moves
  // to the heading when it appears, unless the user has moved on meanwhile.
  const lastPath = useRef(route.path);
  useEffect(() => {
    if (lastPath.current === route.path) return undefined;
    lastPath.current = route.path;
    const main = document.getElementById('main');
    const focusHeading = (): boolean => {
      const heading = document.querySelector<HTMLElement>('main h1');
      heading?.focus();
      return heading !== null;
    };
    if (focusHeading() || !main) return undefined;
    main.focus();
    const observer = new MutationObserver(() => {
      if (document.activeElement !== main || focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [route.path]);

  return (
    <div className="app">
      <AppHeader />
      <SyncNotices />
      <main id="main" tabIndex={-1} className="app-main">
        <Page route={route} />
      </main>
      <AppFooter />
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>{t('import.dropOverlay')}</p>
        </div>
      )}
    </div>
  );
}
