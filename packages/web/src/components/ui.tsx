import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useApp } from '../app-context';
import { hasNavigated } from '../lib/router';

/** The page's heading; it takes focus when the page opens, so screen readers announce the new page. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { branding } = useApp();
  // The served branding can arrive after the page has rendered (a reload): the title follows it.
  useEffect(() => {
    document.title = `${title} · ${branding.name}`;
  }, [title, branding.name]);
  useEffect(() => {
    if (hasNavigated()) ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page-header">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}

export function Alert({ kind = 'error', children }: { kind?: 'error' | 'success' | 'info'; children: ReactNode }) {
  if (!children) return null;
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** A labelled progress bar; without a total it is indeterminate. */
export function ProgressBar({ value, max, label }: { value: number; max: number | null; label: string }) {
  const known = max !== null && max > 0;
  const percent = known ? Math.min(100, Math.round((value / max) * 100)) : null;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? 100 : undefined}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={known ? `${percent} %` : 'in progress'}
    >
      <div
        className={`progress-fill${known ? '' : ' indeterminate'}`}
        style={known ? { width: `${percent}%` } : undefined}
      />
    </div>
  );
}

interface FieldProps {
  label: string;
  hint?: ReactNode;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}

/** A label tied to its control, and a hint the control is described by. */
export function Field({ label, hint, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A button that asks once more before a destructive action. */
export function ConfirmButton({
  onConfirm,
  children,
  label,
  disabled,
}: {
  onConfirm(): void;
  children: ReactNode;
  label?: string;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="danger subtle small"
        aria-label={label}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <button
        ref={confirmRef}
        type="button"
        className="danger small"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Confirm
      </button>
      <button type="button" className="subtle small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status.replace(/_/g, ' ')}</span>;
}

/**
 * Previous/next through a list the API pages with limit, offset and total: the one pager of every
 * list that can grow. `label` names it when a screen has more than one list.
 */
export function Pager({
  total,
  limit,
  offset,
  onOffset,
  label = 'Pages',
}: {
  total: number;
  limit: number;
  offset: number;
  onOffset(offset: number): void;
  label?: string;
}) {
  // An offset past the end (the last item of the last page was deleted) steps back a page.
  useEffect(() => {
    if (offset > 0 && offset >= total) onOffset(Math.max(0, offset - limit));
  }, [offset, total, limit, onOffset]);
  if (total <= limit && offset === 0) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="subtle"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(total, offset + limit)} of {total}
      </span>
      <button
        type="button"
        className="subtle"
        disabled={offset + limit >= total}
        onClick={() => onOffset(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}
