/**
 * The API token: handed to the page in the URL fragment (`#token=...`, never sent to the
 * server in a request line), kept in localStorage, and sent as `Authorization` on writes.
 * Without it the UI is read-only.
 */
const STORAGE_KEY = 'deskstore.token';
const listeners = new Set<() => void>();
let memoryToken: string | null = null;

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return memoryToken;
  }
}

export function getToken(): string | null {
  return readStored() ?? memoryToken;
}

export function setToken(token: string | null): void {
  const value = token?.trim() || null;
  memoryToken = value;
  try {
    if (value) localStorage.setItem(STORAGE_KEY, value);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be disabled: the token then lives as long as the page.
  }
  for (const listener of listeners) listener();
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Splits `token=...` out of a URL fragment (without its `#`): `token=abc` → `/`,
 * `/import#token=abc` → `/import`, `/x?token=abc&y=1` → `/x?y=1`. Pure.
 */
export function splitTokenFromFragment(fragment: string): { token: string; rest: string } | null {
  const match = /(^|[?&#])token=([^&#]*)/.exec(fragment);
  if (!match) return null;
  let token = match[2] ?? '';
  try {
    token = decodeURIComponent(token);
  } catch {
    // kept as written
  }
  const before = fragment.slice(0, match.index);
  const after = fragment.slice(match.index + match[0].length);
  const joined = match[1] === '?' && after.startsWith('&') ? `${before}?${after.slice(1)}` : `${before}${after}`;
  return { token, rest: joined.replace(/[?&#]+$/, '') || '/' };
}

/**
 * Takes the token out of the address bar's fragment, stores it and rewrites the address
 * without it, so it is neither bookmarked nor shown.
 */
export function captureTokenFromLocation(): void {
  const found = splitTokenFromFragment(window.location.hash.slice(1));
  if (!found) return;
  setToken(found.token);
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${found.rest}`);
}
