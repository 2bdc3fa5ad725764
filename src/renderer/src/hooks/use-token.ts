import { useSyncExternalStore } from 'react';
import { getToken, subscribeToken } from '../api/token';

/** The API token, or null when the UI is read-only. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken);
}
