import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { Branding } from '../../api/types';
import { useApp } from '../../app-context';
import { Alert, Field, PageHeader } from '../../components/ui';

type Colors = Branding['colors'];
const colorLabels: Record<keyof Colors, string> = {
  primary: 'Primary colour',
  accent: 'Accent colour',
  background: 'Background colour',
  text: 'Text colour',
};

function ColorField({ name, value, onChange }: { name: keyof Colors; value: string; onChange(value: string): void }) {
  return (
    <Field label={colorLabels[name]}>
      {(id) => (
        <span className="color-field">
          <input id={id} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
          <input
            aria-label={`${colorLabels[name]} (hex)`}
            className="code"
            pattern="#[0-9a-fA-F]{6}"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            size={8}
          />
        </span>
      )}
    </Field>
  );
}

/** The branding this UI itself uses: saved here, applied at once (colours, name, logo, texts). */
export function BrandingPage() {
  const { branding, reloadBranding } = useApp();
  const [name, setName] = useState(branding.name);
  const [colors, setColors] = useState<Colors>(branding.colors);
  const [texts, setTexts] = useState(branding.texts);
  const [logo, setLogo] = useState<File | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await api.branding.update({ name, colors, texts });
      if (logo) await api.branding.uploadLogo(logo);
      await reloadBranding();
      setMessage({ kind: 'success', text: 'Saved. The new branding is in use.' });
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    } finally {
      setBusy(false);
    }
  };
  const restore = async () => {
    try {
      const defaults = await api.branding.update({});
      setName(defaults.name);
      setColors(defaults.colors);
      setTexts(defaults.texts);
      await reloadBranding();
      setMessage({ kind: 'success', text: "Restored DocQA's own look (the logo stays until replaced)." });
    } catch (reason) {
      setMessage({ kind: 'error', text: describeError(reason) });
    }
  };

  return (
    <>
      <PageHeader title="Branding" />
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      <form className="card stack" onSubmit={save}>
        <Field label="Product name">
          {(id) => <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <div className="grid-2">
          {(Object.keys(colorLabels) as Array<keyof Colors>).map((key) => (
            <ColorField
              key={key}
              name={key}
              value={colors[key]}
              onChange={(value) => setColors((c) => ({ ...c, [key]: value }))}
            />
          ))}
        </div>
        <Field label="Welcome text">
          {(id) => (
            <textarea
              id={id}
              rows={2}
              maxLength={500}
              value={texts.welcome}
              onChange={(e) => setTexts((t) => ({ ...t, welcome: e.target.value }))}
            />
          )}
        </Field>
        <div className="grid-2">
          <Field label="Question placeholder">
            {(id) => (
              <input
                id={id}
                maxLength={120}
                value={texts.chat_placeholder}
                onChange={(e) => setTexts((t) => ({ ...t, chat_placeholder: e.target.value }))}
              />
            )}
          </Field>
          <Field label="Support email">
            {(id) => (
              <input
                id={id}
                type="email"
                value={texts.support_email}
                onChange={(e) => setTexts((t) => ({ ...t, support_email: e.target.value }))}
              />
            )}
          </Field>
        </div>
        <Field label="Footer">
          {(id) => (
            <input
              id={id}
              maxLength={300}
              value={texts.footer}
              onChange={(e) => setTexts((t) => ({ ...t, footer: e.target.value }))}
            />
          )}
        </Field>
        <Field label="Logo" hint="PNG, JPEG, WebP or a self-contained SVG, at most 2 MB; scaled to 512 px.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/svg+xml"
              onChange={(e) => setLogo(e.target.files?.[0] ?? null)}
            />
          )}
        </Field>
        <div
          className="brand-preview"
          aria-label="Preview"
          style={{ background: colors.background, color: colors.text }}
        >
          {branding.logo_url ? <img src={branding.logo_url} alt="Current logo" className="brand-logo" /> : null}
          <strong>{name}</strong>
          <span className="preview-chip" style={{ background: colors.primary, color: '#fff' }}>
            Primary
          </span>
          <span className="preview-chip" style={{ background: colors.accent, color: '#fff' }}>
            Accent
          </span>
        </div>
        <div className="actions">
          <button type="submit" disabled={busy}>
            Save branding
          </button>
          <button type="button" className="subtle" onClick={() => void restore()}>
            Restore defaults
          </button>
        </div>
      </form>
    </>
  );
}
