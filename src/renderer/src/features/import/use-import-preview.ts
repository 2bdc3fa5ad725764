/**
 * The import screen's state: the chosen file is uploaded once (with upload progress) and
 * previewed; every change of encoding, delimiter, header row or a column type asks for a new
 * preview of the same staged upload. The options finally sent to resource_create are the
 * ones the last preview showed, so what was seen is what gets imported.
 */
import { delimiterParam } from '../../../../shared/delimiters';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PickedFile } from '../../../../shared/bridge';
import { isAbort } from '../../api/errors';
import type { ImportPreviewResult, ImportType, RepairChoices } from '../../../../shared/wire/import';
import type { LoadParams } from '../../../../shared/wire/actions';
import { optional } from '../../../../shared/optional';
import { previewAgain, uploadForPreview, type ImportSource, type PreviewOptions, type UploadHandle } from '../../api/upload';
import type { TargetChoice } from './ImportTarget';
import type { TextSearchLanguage } from '../../../../shared/text-search-languages';

export type PreviewPhase = 'idle' | 'uploading' | 'previewing' | 'ready';

export interface Overrides {
  readonly encoding?: string;
  readonly delimiter?: string;
  readonly skipLines?: number;
  readonly types: Readonly<Record<string, ImportType>>;
  readonly repairs?: RepairChoices;
  /** The sheet of a workbook, the file of a zip archive. */
  readonly sheet?: string;
  readonly entry?: string;
}

export interface ImportPreviewState {
  readonly phase: PreviewPhase;
  readonly fileName: string;
  readonly fileSize: number;
  readonly uploaded: { readonly loaded: number; readonly total: number };
  readonly source: Exclude<ImportSource, { kind: 'file' }> | null;
  readonly preview: ImportPreviewResult | null;
  readonly overrides: Overrides;
  /** Where the user chose to put this file (null: a new dataset named after the file). Like the
   * overrides, they belong to the file: choosing another file starts from its defaults. */
  readonly target: TargetChoice | null;
  readonly resourceName: string | null;
  /** The full-text language chosen (null: the suggested one). */
  readonly language: TextSearchLanguage | null;
  readonly error: unknown;
}

const INITIAL: ImportPreviewState = {
  phase: 'idle',
  fileName: '',
  fileSize: 0,
  uploaded: { loaded: 0, total: 0 },
  source: null,
  preview: null,
  overrides: { types: {} },
  target: null,
  resourceName: null,
  language: null,
  error: null,
};

/** The wire name of a delimiter (`\t` → `tab`). */
function optionsOf(overrides: Overrides): PreviewOptions {
  return {
    ...(overrides.encoding ? { encoding: overrides.encoding } : {}),
    ...(overrides.delimiter ? { delimiter: overrides.delimiter } : {}),
    ...(overrides.skipLines !== undefined ? { skipLines: overrides.skipLines } : {}),
    types: overrides.types,
    ...optional('repairs', overrides.repairs),
    ...optional('sheet', overrides.sheet),
    ...optional('entry', overrides.entry),
  };
}

export function useImportPreview() {
  const [state, setState] = useState<ImportPreviewState>(INITIAL);
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });
  const upload = useRef<UploadHandle | null>(null);
  const request = useRef<AbortController | null>(null);

  const cancelRunning = () => {
    upload.current?.abort();
    upload.current = null;
    request.current?.abort();
    request.current = null;
  };
  useEffect(() => cancelRunning, []);

  const chooseFile = useCallback((file: File) => {
    cancelRunning();
    setState({ ...INITIAL, phase: 'uploading', fileName: file.name, fileSize: file.size, uploaded: { loaded: 0, total: file.size } });
    const handle = uploadForPreview(file, {}, (loaded, total) => {
      setState((s) => (s.phase === 'uploading' ? { ...s, uploaded: { loaded, total } } : s));
    });
    upload.current = handle;
    handle.promise.then(
      (preview) => {
        if (upload.current !== handle) return;
        upload.current = null;
        setState((s) => ({
          ...s,
          phase: 'ready',
          preview,
          error: null,
          source: { kind: 'staged', uploadId: preview.upload_id ?? '', name: file.name, size: file.size },
        }));
      },
      (error: unknown) => {
        if (upload.current !== handle || isAbort(error)) return;
        upload.current = null;
        setState((s) => ({ ...s, phase: 'idle', error }));
      },
    );
  }, []);

  const runPreview = useCallback((source: Exclude<ImportSource, { kind: 'file' }>, overrides: Overrides) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    previewAgain(source, optionsOf(overrides), controller.signal).then(
      (preview) => {
        if (controller.signal.aborted) return;
        const ids = new Set(preview.columns.map((c) => c.id));
        const types = Object.fromEntries(Object.entries(overrides.types).filter(([id]) => ids.has(id)));
        setState((s) => ({ ...s, phase: 'ready', preview, error: null, overrides: { ...s.overrides, types } }));
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setState((s) => ({ ...s, phase: s.preview ? 'ready' : 'idle', error }));
      },
    );
  }, []);

  const chooseLocal = useCallback(
    (picked: PickedFile) => {
      cancelRunning();
      const source = { kind: 'local' as const, handle: picked.handle, name: picked.name, size: picked.size };
      setState({ ...INITIAL, phase: 'previewing', fileName: picked.name, fileSize: picked.size, source });
      runPreview(source, INITIAL.overrides);
    },
    [runPreview],
  );

  /** Changes options and previews again; `replace` drops the options the patch leaves out. */
  const change = useCallback(
    (patch: Partial<Overrides>, replace = false) => {
      const current = latest.current;
      if (!current.source) return;
      const overrides: Overrides = replace ? { types: {}, ...patch } : { ...current.overrides, ...patch };
      const next: ImportPreviewState = { ...current, overrides, phase: 'previewing' };
      latest.current = next;
      setState(next);
      runPreview(current.source, next.overrides);
    },
    [runPreview],
  );

  const reset = useCallback(() => {
    cancelRunning();
    setState(INITIAL);
  }, []);

  const dismissError = useCallback(() => setState((s) => ({ ...s, error: null })), []);
  const setTarget = useCallback((target: TargetChoice | null) => setState((s) => ({ ...s, target })), []);
  const setResourceName = useCallback((resourceName: string | null) => setState((s) => ({ ...s, resourceName })), []);
  const setLanguage = useCallback((language: TextSearchLanguage | null) => setState((s) => ({ ...s, language })), []);

  return { state, chooseFile, chooseLocal, change, reset, dismissError, setTarget, setResourceName, setLanguage };
}

/** resource_create's load parameters for what the preview shows, indexed in `language`. */
export function loadParams(state: ImportPreviewState, language: TextSearchLanguage): LoadParams | null {
  const { preview, source } = state;
  if (!preview || !source) return null;
  return {
    deskstore_language: language,
    deskstore_encoding: preview.encoding,
    deskstore_delimiter: delimiterParam(preview.delimiter),
    deskstore_skip_lines: preview.skipLines,
    ...(Object.keys(state.overrides.types).length ? { deskstore_types: JSON.stringify(state.overrides.types) } : {}),
    // The user's choice per kind of problem row (the preview already applied it), so the import does what was seen.
    ...(state.overrides.repairs ? { deskstore_repairs: JSON.stringify(state.overrides.repairs) } : {}),
    ...optional('deskstore_sheet', preview.sheet),
    ...optional('deskstore_entry', preview.entry),
  };
}
