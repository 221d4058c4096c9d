import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api } from './api/client';
import { session } from './api/session';
import { navigate } from './lib/router';
import type { Branding, Role, User } from './api/types';

const defaultBranding: Branding = {
  name: 'DocQA',
  colors: { primary: '#1f6feb', accent: '#8250df', background: '#ffffff', text: '#1f2328' },
  texts: {
    welcome: 'Ask a question about your documents.',
    chat_placeholder: 'Ask a question…',
    footer: '',
    support_email: '',
  },
  logo_url: null,
  updated_at: null,
};

interface AppState {
  /** undefined while the first check runs, null when signed out. */
  user: User | null | undefined;
  branding: Branding;
  reloadUser(): Promise<void>;
  reloadBranding(): Promise<void>;
  signOut(): void;
}

const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside AppProvider');
  return state;
}

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether the user has at least the role (the spec's Required, Editor+ and Admin levels). */
export function hasRole(user: User | null | undefined, role: Role): boolean {
  return !!user && rank[user.role] >= rank[role];
}

/** Text on a colour: dark or white, whichever reads better (WCAG relative luminance). */
function onColour(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.45 ? '#111111' : '#ffffff';
}

/** The served branding becomes CSS custom properties (PageHeader puts its name in the document title). */
function applyBranding(branding: Branding): void {
  const root = document.documentElement;
  const { primary, accent, background, text } = branding.colors;
  root.style.setProperty('--primary', primary);
  root.style.setProperty('--on-primary', onColour(primary));
  root.style.setProperty('--accent', accent);
  root.style.setProperty('--on-accent', onColour(accent));
  root.style.setProperty('--bg', background);
  root.style.setProperty('--text', text);
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(session.tokens ? undefined : null);
  const [branding, setBranding] = useState<Branding>(defaultBranding);

  const reloadBranding = useCallback(async () => {
    try {
      const next = await api.branding.get();
      setBranding(next);
      applyBranding(next);
    } catch {
      applyBranding(defaultBranding);
    }
  }, []);

  const reloadUser = useCallback(async () => {
    if (!session.tokens) return setUser(null);
    try {
      setUser(await api.auth.me());
    } catch {
      setUser(session.tokens ? undefined : null);
    }
  }, []);

  useEffect(() => {
    void reloadBranding();
    void reloadUser();
    return session.subscribe((signedIn) => (signedIn ? void reloadUser() : setUser(null)));
  }, [reloadBranding, reloadUser]);

  // A deliberate sign-out starts afresh at the sign-in page (no `next` back to the last page).
  const signOut = useCallback(() => {
    session.clear();
    navigate('/login', { replace: true });
  }, []);
  return (
    <AppContext.Provider value={{ user, branding, reloadUser, reloadBranding, signOut }}>
      {children}
    </AppContext.Provider>
  );
}
