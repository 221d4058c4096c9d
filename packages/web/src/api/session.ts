import type { TokenPair } from './types';

// The token pair lives in localStorage so a reload keeps the sign-in; the access token is short-lived
// (15 minutes by default) and the refresh token rotates on every use.
const storageKey = 'docqa.session';

type Listener = (signedIn: boolean) => void;
const listeners = new Set<Listener>();

function read(): TokenPair | null {
  try {
    const raw = localStorage.getItem(storageKey);
    return raw ? (JSON.parse(raw) as TokenPair) : null;
  } catch {
    return null;
  }
}

let current: TokenPair | null = read();

export const session = {
  get tokens(): TokenPair | null {
    return current;
  },
  set(pair: TokenPair): void {
    current = { access_token: pair.access_token, refresh_token: pair.refresh_token, token_type: pair.token_type };
    localStorage.setItem(storageKey, JSON.stringify(current));
    for (const listener of listeners) listener(true);
  },
  clear(): void {
    current = null;
    localStorage.removeItem(storageKey);
    for (const listener of listeners) listener(false);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab signing in or out changes this one too.
window.addEventListener('storage', (event) => {
  if (event.key !== storageKey) return;
  current = read();
  for (const listener of listeners) listener(current !== null);
});

/**
 * Single sign-on ends with a redirect to the UI carrying the tokens in the fragment
 * (`#access_token=…&refresh_token=…&token_type=bearer`). Takes them and removes the fragment from
 * the address bar (and so from the history). Answers whether tokens were found.
 */
export function takeTokensFromFragment(): boolean {
  if (!location.hash.includes('access_token=')) return false;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const access = fragment.get('access_token');
  const refresh = fragment.get('refresh_token');
  history.replaceState(history.state, '', location.pathname + location.search);
  if (!access || !refresh) return false;
  session.set({ access_token: access, refresh_token: refresh, token_type: 'bearer' });
  return true;
}
