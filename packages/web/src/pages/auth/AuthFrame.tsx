import type { ReactNode } from 'react';
import { useApp } from '../../app-context';
import { Brand } from '../../components/Layout';
import { PageHeader } from '../../components/ui';

/** The frame of the pages shown signed out: the brand, one card, the footer text. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { branding } = useApp();
  return (
    <div className="auth-page">
      <main id="main" className="auth-card">
        <Brand />
        <PageHeader title={title} />
        {children}
      </main>
      {branding.texts.footer ? <footer className="footer">{branding.texts.footer}</footer> : null}
    </div>
  );
}
