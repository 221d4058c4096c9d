import { useEffect, type ReactNode } from 'react';
import { hasRole, useApp } from './app-context';
import type { Role } from './api/types';
import { Layout } from './components/Layout';
import { Loading, PageHeader } from './components/ui';
import { Link, matchPath, navigate, useLocation } from './lib/router';
import { AccountPage } from './pages/AccountPage';
import { AnalyticsPage } from './pages/admin/AnalyticsPage';
import { AuditPage } from './pages/admin/AuditPage';
import { BrandingPage } from './pages/admin/BrandingPage';
import { GroupsPage } from './pages/admin/GroupsPage';
import { LicensePage } from './pages/admin/LicensePage';
import { ModelsPage } from './pages/admin/models/ModelsPage';
import { OidcPage } from './pages/admin/OidcPage';
import { RulesPage } from './pages/admin/RulesPage';
import { SchedulesPage } from './pages/admin/SchedulesPage';
import { SettingsPage } from './pages/admin/SettingsPage';
import { UsersPage } from './pages/admin/UsersPage';
import { LoginPage } from './pages/auth/LoginPage';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/auth/PasswordResetPages';
import { ChatPage } from './pages/chat/ChatPage';
import { DocumentsPage } from './pages/documents/DocumentsPage';
import { DocumentViewerPage } from './pages/documents/DocumentViewerPage';
import { SourcesPage } from './pages/sources/SourcesPage';

interface Route {
  path: string;
  role: Role;
  render(params: Record<string, string>): ReactNode;
}

const routes: Route[] = [
  { path: '/', role: 'viewer', render: () => <ChatPage conversationId={null} /> },
  { path: '/chat/:id', role: 'viewer', render: (p) => <ChatPage conversationId={p.id ?? null} /> },
  { path: '/documents', role: 'viewer', render: () => <DocumentsPage /> },
  { path: '/documents/:id/view', role: 'viewer', render: (p) => <DocumentViewerPage documentId={p.id ?? ''} /> },
  { path: '/sources', role: 'viewer', render: () => <SourcesPage /> },
  { path: '/account', role: 'viewer', render: () => <AccountPage /> },
  { path: '/admin/users', role: 'admin', render: () => <UsersPage /> },
  { path: '/admin/groups', role: 'admin', render: () => <GroupsPage /> },
  { path: '/admin/oidc', role: 'admin', render: () => <OidcPage /> },
  { path: '/admin/rules', role: 'editor', render: () => <RulesPage /> },
  { path: '/admin/schedules', role: 'admin', render: () => <SchedulesPage /> },
  { path: '/admin/analytics', role: 'viewer', render: () => <AnalyticsPage /> },
  { path: '/admin/audit', role: 'admin', render: () => <AuditPage /> },
  { path: '/admin/license', role: 'viewer', render: () => <LicensePage /> },
  { path: '/admin/models', role: 'admin', render: () => <ModelsPage /> },
  { path: '/admin/branding', role: 'admin', render: () => <BrandingPage /> },
  { path: '/admin/settings', role: 'admin', render: () => <SettingsPage /> },
];

const publicPages: Record<string, () => ReactNode> = {
  '/login': () => <LoginPage />,
  '/forgot-password': () => <ForgotPasswordPage />,
  '/reset-password': () => <ResetPasswordPage />,
};

function Message({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <p>{children}</p>
      <p>
        <Link to="/">Back to chat</Link>
      </p>
    </>
  );
}

function RedirectToLogin() {
  const { href } = useLocation();
  useEffect(() => {
    navigate(`/login?next=${encodeURIComponent(href)}`, { replace: true });
  }, [href]);
  return null;
}

export function App() {
  const { user } = useApp();
  const { pathname } = useLocation();
  const publicPage = publicPages[pathname];
  if (publicPage) return <>{publicPage()}</>;
  if (user === undefined) return <Loading label="Signing in…" />;
  if (user === null) return <RedirectToLogin />;
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    const allowed = hasRole(user, route.role);
    return (
      <Layout>
        {allowed ? route.render(params) : <Message title="Not allowed">This page needs the {route.role} role.</Message>}
      </Layout>
    );
  }
  return (
    <Layout>
      <Message title="Page not found">There is no page at {pathname}.</Message>
    </Layout>
  );
}
