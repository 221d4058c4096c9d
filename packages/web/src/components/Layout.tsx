import { useEffect, useState, type ReactNode } from 'react';
import { hasRole, useApp } from '../app-context';
import type { Role } from '../api/types';
import { Link, useLocation } from '../lib/router';

interface NavItem {
  to: string;
  label: string;
  role: Role;
}

const mainNav: NavItem[] = [
  { to: '/', label: 'Chat', role: 'viewer' },
  { to: '/documents', label: 'Documents', role: 'viewer' },
  { to: '/sources', label: 'Sources & jobs', role: 'viewer' },
];

export const adminNav: NavItem[] = [
  { to: '/admin/users', label: 'Users', role: 'admin' },
  { to: '/admin/groups', label: 'Groups', role: 'admin' },
  { to: '/admin/oidc', label: 'Single sign-on', role: 'admin' },
  { to: '/admin/rules', label: 'Metadata rules', role: 'editor' },
  { to: '/admin/schedules', label: 'Schedules', role: 'admin' },
  { to: '/admin/analytics', label: 'Analytics', role: 'viewer' },
  { to: '/admin/audit', label: 'Audit log', role: 'admin' },
  { to: '/admin/license', label: 'License', role: 'viewer' },
  { to: '/admin/models', label: 'Models', role: 'admin' },
  { to: '/admin/branding', label: 'Branding', role: 'admin' },
  { to: '/admin/settings', label: 'Settings', role: 'admin' },
];

function isCurrent(to: string, pathname: string): boolean {
  if (to === '/') return pathname === '/' || pathname.startsWith('/chat');
  return pathname === to || pathname.startsWith(`${to}/`);
}

export function Brand() {
  const { branding } = useApp();
  return (
    <Link to="/" className="brand">
      {branding.logo_url ? (
        <img src={branding.logo_url} alt="" className="brand-logo" />
      ) : (
        <span className="brand-mark" aria-hidden="true" />
      )}
      <span className="brand-name">{branding.name}</span>
    </Link>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { user, branding, signOut } = useApp();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);
  const admin = adminNav.filter((item) => hasRole(user, item.role));
  const link = (item: NavItem) => (
    <li key={item.to}>
      <Link to={item.to} aria-current={isCurrent(item.to, pathname) ? 'page' : undefined}>
        {item.label}
      </Link>
    </li>
  );
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <Brand />
        <div className="account">
          <Link to="/account" aria-current={pathname === '/account' ? 'page' : undefined} title="Your account">
            {user?.username ?? 'Account'}
          </Link>
          <button type="button" className="subtle" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav id="site-nav" className={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>{mainNav.filter((item) => hasRole(user, item.role)).map(link)}</ul>
        {admin.length > 0 ? (
          <>
            <h2 className="nav-heading" id="admin-nav-heading">
              Administration
            </h2>
            <ul aria-labelledby="admin-nav-heading">{admin.map(link)}</ul>
          </>
        ) : null}
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {branding.texts.footer || branding.texts.support_email ? (
        <footer className="footer">
          {branding.texts.footer}
          {branding.texts.support_email ? (
            <>
              {' '}
              Support: <a href={`mailto:${branding.texts.support_email}`}>{branding.texts.support_email}</a>
            </>
          ) : null}
        </footer>
      ) : null}
    </div>
  );
}
