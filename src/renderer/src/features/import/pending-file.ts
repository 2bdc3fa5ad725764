/**
 * A file dropped anywhere on the window waits here until the import screen takes it (the
 * drop may happen on any screen; the app then navigates to the import screen).
 */
import { useSyncExternalStore } from 'react';

let pending: File | null = null;
const listeners = new Set<() => void>();

export function offerFile(file: File): void {
  pending = file;
  for (const listener of listeners) listener();
}

export function takePendingFile(): File | null {
  const file = pending;
  pending = null;
  return file;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePendingFile(): File | null {
  return useSyncExternalStore(subscribe, () => pending);
}
