import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface AsyncResult<T> {
  /** The last loaded value (kept while a new key loads, so screens do not flash). */
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

interface State<T> {
  readonly key: string;
  readonly data: T | undefined;
  readonly error: unknown;
}

/**
 * Runs `load` whenever `key` changes (or on reload) and aborts the previous run. `load` may
 * change on every render; only `key` decides when to load again.
 */
export function useAsync<T>(key: string, load: (signal: AbortSignal) => Promise<T>): AsyncResult<T> {
  const loadRef = useRef(load);
  useLayoutEffect(() => {
    loadRef.current = load;
  });
  const [nonce, setNonce] = useState(0);
  const requestKey = `${nonce}\u0000${key}`;
  const [state, setState] = useState<State<T>>({ key: '', data: undefined, error: undefined });
  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key: requestKey, data, error: undefined });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ key: requestKey, data: s.data, error }));
      },
    );
    return () => controller.abort();
  }, [requestKey]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const current = state.key === requestKey;
  return { data: state.data, error: current ? state.error : undefined, loading: !current, reload };
}
