import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { ImportPreviewResult, ImportType } from '../../../../shared/wire/import';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProgressBar } from '../../components/ProgressBar';
import { TokenForm } from '../../components/TokenForm';
import { formatBytes, formatCount, formatPercent } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLocale } from '../../hooks/use-locale';
import { useToken } from '../../hooks/use-token';
import { importPath, navigate } from '../../router';
import { titleFromFileName } from './dataset-name';
import { FileChooser } from './FileChooser';
import { ImportOptions } from './ImportOptions';
import { ImportTarget, type TargetChoice } from './ImportTarget';
import { takePendingFile, usePendingFile } from './pending-file';
import { PreviewTable } from './PreviewTable';
import { RenamedColumns } from './RenamedColumns';
import { RepairsReview } from './RepairsReview';
import { SourcePicker } from './SourcePicker';
import { startImport, startReplace } from './start-import';
import { SearchLanguageChoice } from './SearchLanguageChoice';
import { ReplaceTarget } from './ReplaceTarget';
import { ColumnChangesReview } from './ColumnChangesReview';
import { columnChanges, hasChanges } from './column-changes';
import { isTextSearchLanguage, suggestTextSearchLanguage } from '../../../../shared/text-search-languages';
import { useImportPreview } from './use-import-preview';
import { fileProblem } from './problem-text';
import { toApiError } from '../../api/errors';
import type { TFunction } from 'i18next';

/** A refused file (spreadsheet, binary) gets its own title and advice. */
function fileProblemText(error: unknown, t: TFunction): { title?: string; hint?: string } {
  const err = toApiError(error);
  const kind = fileProblem([err.message, ...Object.values(err.fields).flat()].join(' '));
  return kind ? { title: t(`import.fileProblem.${kind}.title`), hint: t(`import.fileProblem.${kind}.hint`) } : {};
}

/** The words of a preview (header and first rows) that tell which language the data is in. */
function previewTexts(preview: ImportPreviewResult): string[] {
  return [...preview.columns.map((c) => c.label), ...preview.rows.flatMap((row) => row.filter((cell): cell is string => cell !== null))];
}

/**
 * Import a file: the preview of how it will be read, where it goes and in which full-text
 * language, then the load. With `replaceId`, the file replaces that resource's data (same id,
 * same dataset; the old data stays until the new is complete).
 */
export function ImportPage({ replaceId = null }: { readonly replaceId?: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useToken();
  const { state, chooseFile, chooseLocal, change, reset, dismissError, setTarget, setResourceName, setLanguage } = useImportPreview();
  const pendingFile = usePendingFile();
  const packages = useAsync('packages-for-import', (signal) => call('package_search', { q: '', rows: 1000, start: 0 }, { signal }));
  const replacing = useAsync(`replace:${replaceId ?? ''}`, (signal) =>
    replaceId ? call('resource_show', { id: replaceId }, { signal }) : Promise.resolve(null),
  );
  // A replacement's file is compared with the table's columns: a change is asked about first.
  const currentFields = useAsync(`replace-fields:${replaceId ?? ''}`, (signal) =>
    replaceId ? call('datastore_search', { resource_id: replaceId, limit: 0, include_total: false }, { signal }) : Promise.resolve(null),
  );
  const changes = replaceId && state.preview && currentFields.data ? columnChanges(currentFields.data.fields, state.preview.columns) : null;
  const changesKey = changes && hasChanges(changes) ? JSON.stringify(changes) : null;
  const [acceptedChanges, setAcceptedChanges] = useState<string | null>(null);
  const columnsSettled = !replaceId || (changes !== null && (changesKey === null || acceptedChanges === changesKey));
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  useDocumentTitle(t('import.title'));

  // A file dropped on the window (here or on another screen) starts a new preview.
  useEffect(() => {
    if (!pendingFile || !token) return;
    const file = takePendingFile();
    if (file) chooseFile(file);
  }, [pendingFile, token, chooseFile]);

  const fileTitle = titleFromFileName(state.fileName);
  const effectiveTarget: TargetChoice = state.target ?? { mode: 'new', title: fileTitle };
  const effectiveName = state.resourceName ?? state.fileName;
  const busy = state.phase === 'uploading' || state.phase === 'previewing';
  const suggested = state.preview ? suggestTextSearchLanguage(previewTexts(state.preview)) : 'english';
  // a replacement keeps the resource's language unless changed; a new table takes the suggestion
  const current = replacing.data?.deskstore?.searchLanguage;
  const language = state.language ?? (isTextSearchLanguage(current) ? current : suggested);

  const begin = () => {
    setStarting(true);
    setStartError(null);
    const started = replaceId ? startReplace(state, replaceId, language) : startImport(state, effectiveTarget, effectiveName, language);
    started.then(
      ({ resourceId, createdDataset }) => {
        navigate(importPath(resourceId), createdDataset ? new URLSearchParams({ dataset: createdDataset }) : undefined);
      },
      (err: unknown) => {
        setStarting(false);
        setStartError(err);
      },
    );
  };

  const newFile = (file: File) => {
    setStartError(null);
    chooseFile(file);
  };

  const setType = (columnId: string, type: ImportType | null) => {
    const types = { ...state.overrides.types };
    if (type) types[columnId] = type;
    else delete types[columnId];
    change({ types });
  };

  return (
    <div className="page import">
      <div className="page-head">
        <h1 tabIndex={-1}>{replaceId ? t('import.replace.title') : t('import.title')}</h1>
        {state.phase !== 'idle' && (
          <button type="button" className="button" onClick={reset}>
            {t('import.startOver')}
          </button>
        )}
      </div>
      <TokenForm />
      {!token && <p className="notice">{t('import.needsToken')}</p>}
      {replaceId && <ReplaceTarget resource={replacing.data ?? null} error={replacing.error} onRetry={replacing.reload} />}
      {state.error !== null && <ErrorNotice error={state.error} onRetry={dismissError} {...fileProblemText(state.error, t)} />}
      {state.phase === 'idle' && !state.preview && <FileChooser disabled={!token} onFile={newFile} onLocal={chooseLocal} />}
      {state.phase === 'uploading' && (
        <section className="card" aria-labelledby="upload-title">
          <h2 id="upload-title">{t('import.upload.title', { name: state.fileName })}</h2>
          <ProgressBar
            fraction={state.uploaded.total ? state.uploaded.loaded / state.uploaded.total : null}
            label={t('import.upload.label')}
            valueText={t('import.upload.value', {
              loaded: formatBytes(state.uploaded.loaded, locale),
              total: formatBytes(state.uploaded.total, locale),
            })}
          />
          <p className="muted">
            {t('import.upload.value', {
              loaded: formatBytes(state.uploaded.loaded, locale),
              total: formatBytes(state.uploaded.total, locale),
            })}
            {state.uploaded.total > 0 && ` · ${formatPercent(state.uploaded.loaded / state.uploaded.total, locale)}`}
          </p>
          <button type="button" className="button" onClick={reset}>
            {t('common.cancel')}
          </button>
        </section>
      )}
      {state.phase === 'previewing' && !state.preview && <p role="status">{t('import.preview.loading')}</p>}
      {state.preview && (
        <>
          <section className="card preview-head" aria-labelledby="preview-title">
            <h2 id="preview-title">{t('import.preview.title', { name: state.fileName })}</h2>
            <p className="muted">
              {t('import.preview.summary', {
                size: formatBytes(state.fileSize || state.preview.bytes, locale),
                columns: t('import.preview.columnCount', {
                  count: state.preview.columns.length,
                  n: formatCount(state.preview.columns.length, locale),
                }),
                count: state.preview.rows.length,
                rows: formatCount(state.preview.rows.length, locale),
              })}
            </p>
            {!state.preview.sampledWholeFile && <p className="muted small">{t('import.preview.sampled')}</p>}
            {state.preview.columns.length === 0 && (
              <p className="notice notice-error" role="alert">
                {t('import.preview.noColumns')}
              </p>
            )}
            {state.preview.columns.length > 0 && state.preview.confidence < 0.5 && (
              <p className="notice" role="note">
                {t('import.preview.unsure', { confidence: formatPercent(state.preview.confidence, locale) })}
              </p>
            )}
            <span className="muted small" role="status" aria-live="polite">
              {state.phase === 'previewing' ? t('import.preview.updating') : ''}
            </span>
            <div className="preview-options">
              <SourcePicker
                preview={state.preview}
                busy={busy}
                onSheet={(sheet) => change({ sheet, types: {}, repairs: {} })}
                onEntry={(entry) => {
                  // Another file of the archive: its own layout is detected afresh.
                  const { encoding: _e, delimiter: _d, skipLines: _s, sheet: _sh, ...rest } = state.overrides;
                  change({ ...rest, entry, types: {}, repairs: {} }, true);
                }}
              />
              {state.preview.format === 'csv' && <ImportOptions preview={state.preview} busy={busy} onChange={change} />}
              {!replaceId && (
                <ImportTarget
                  packages={packages.data?.results ?? []}
                  target={effectiveTarget}
                  resourceName={effectiveName}
                  newTitle={fileTitle}
                  onTarget={setTarget}
                  onResourceName={setResourceName}
                />
              )}
              <SearchLanguageChoice value={language} suggested={suggested} onChange={setLanguage} />
            </div>
            <RenamedColumns renamed={state.preview.renamed} />
            {changes && changesKey !== null && (
              <ColumnChangesReview
                changes={changes}
                accepted={acceptedChanges === changesKey}
                onAccept={(yes) => setAcceptedChanges(yes ? changesKey : null)}
              />
            )}
            {startError !== null && <ErrorNotice error={startError} />}
            <div className="import-actions">
              <button
                type="button"
                className="button button-primary button-large"
                data-testid="start-import"
                disabled={
                  busy ||
                  starting ||
                  !token ||
                  state.preview.columns.length === 0 ||
                  !columnsSettled ||
                  (replaceId ? !replacing.data : effectiveTarget.mode === 'new' && !effectiveTarget.title.trim())
                }
                onClick={begin}
              >
                {starting ? t('import.starting') : replaceId ? t('import.replace.start') : t('import.start')}
              </button>
              <span className="muted small">{t('import.startHint')}</span>
            </div>
          </section>
          <RepairsReview
            repairs={state.preview.repairs}
            sampled={!state.preview.sampledWholeFile}
            busy={busy}
            onChoose={(kind, action) => change({ repairs: { ...state.overrides.repairs, [kind]: action } })}
          />
          <PreviewTable preview={state.preview} busy={busy} onType={setType} forcedTypes={state.overrides.types} />
        </>
      )}
    </div>
  );
}
