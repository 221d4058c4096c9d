import { useMemo, useRef, useState, type MouseEvent } from 'react';
import type { ChatSource, TokenBudget, TurnFeedback } from '../../api/types';
import { formatMs } from '../../lib/format';
import { renderAnswer } from '../../lib/markdown';
import { navigate } from '../../lib/router';
import { viewerPath } from '../documents/viewer-link';
import { FeedbackButtons, type Rate } from './FeedbackButtons';

export interface DisplayTurn {
  key: string;
  query: string;
  answer: string;
  sources: ChatSource[];
  token_budget: TokenBudget | null;
  timing: Record<string, number> | null;
  retrieval_settings: Record<string, unknown> | null;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  error?: string;
  feedback?: TurnFeedback | null;
}

/** Opens the viewer in place (a modifier key or the middle button keeps the browser's new-tab behaviour). */
function openInViewer(event: MouseEvent<HTMLAnchorElement>, source: ChatSource) {
  const to = viewerPath(source);
  if (!to || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(to);
}

function Sources({ turnKey, sources }: { turnKey: string; sources: ChatSource[] }) {
  if (sources.length === 0) return null;
  return (
    <section className="sources" aria-label="Sources">
      <h3>Sources</h3>
      <ol>
        {sources.map((source, i) => {
          const n = source.index ?? i + 1;
          return (
            <li key={`${source.chunk_id}-${n}`} id={`source-${turnKey}-${n}`} value={n}>
              <details>
                <summary>
                  <span className="source-n">[{n}]</span> <strong>{source.title || source.path}</strong>{' '}
                  <span className="source-path">{source.path}</span>
                </summary>
                {viewerPath(source) ? (
                  <p>
                    <a href={viewerPath(source)!} onClick={(event) => openInViewer(event, source)}>
                      Open {source.title || source.path} at the passage
                    </a>
                  </p>
                ) : null}
                {source.text ? (
                  <blockquote className="chunk-text">{source.text}</blockquote>
                ) : (
                  <p className="hint">The passage's text is kept only with the answer as it was given.</p>
                )}
                <p className="hint">
                  Relevance score {typeof source.score === 'number' ? source.score.toFixed(3) : '—'}
                  {Object.keys(source.metadata ?? {}).length
                    ? ` · ${Object.entries(source.metadata)
                        .map(([k, v]) => `${k}: ${String(v)}`)
                        .join(', ')}`
                    : ''}
                </p>
              </details>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function Details({ turn }: { turn: DisplayTurn }) {
  const budget = turn.token_budget;
  const settings = turn.retrieval_settings ?? {};
  return (
    <dl className="answer-details">
      <dt>Timing</dt>
      <dd>
        {turn.timing
          ? ['classify', 'retrieve', 'generate', 'total']
              .map((stage) => `${stage} ${formatMs(turn.timing?.[stage])}`)
              .join(' · ')
          : '—'}
      </dd>
      <dt>Token budget</dt>
      <dd>
        {budget
          ? `${budget.estimated_prompt} prompt + ${budget.reserved_completion} reserved of ${budget.limit} tokens; ${budget.chunks_dropped} passage(s) and ${budget.history_turns_dropped ?? 0} earlier turn(s) dropped to fit`
          : 'Everything fit in the context window; nothing was dropped.'}
      </dd>
      <dt>Retrieval</dt>
      <dd>
        {String(settings.mode ?? '—')} search, top {String(settings.top_k ?? '—')}
        {settings.rewritten_query ? `; searched for "${String(settings.rewritten_query)}"` : ''}
        {settings.filters && Object.keys(settings.filters as object).length
          ? `; filters ${JSON.stringify(settings.filters)}`
          : ''}
      </dd>
    </dl>
  );
}

/** `onRate` is given once the turn is saved in a conversation (its thumbs can be stored). */
export function AnswerView({ turn, onRate }: { turn: DisplayTurn; onRate?: Rate }) {
  const [showDetails, setShowDetails] = useState(false);
  const answerRef = useRef<HTMLDivElement>(null);
  const anchor = (n: number) => `source-${turn.key}-${n}`;
  const html = useMemo(
    () => renderAnswer(turn.answer, turn.sources.length, anchor),
    [turn.answer, turn.sources.length],
  );

  // A citation opens the document at the passage; a source without a location (an answer saved
  // before sources had one) opens its entry below and moves focus there instead.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a.citation');
    if (!link) return;
    event.preventDefault();
    const n = Number(link.dataset.cite);
    const source = turn.sources.find((candidate, i) => (candidate.index ?? i + 1) === n);
    const to = source ? viewerPath(source) : null;
    if (to) {
      navigate(to);
      return;
    }
    const item = document.getElementById(anchor(n));
    const details = item?.querySelector('details');
    if (!item || !details) return;
    details.open = true;
    item.classList.add('highlight');
    setTimeout(() => item.classList.remove('highlight'), 1500);
    item.querySelector<HTMLElement>('summary')?.focus();
    item.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };

  return (
    <li className="turn">
      <div className="question">
        <span className="visually-hidden">You asked: </span>
        {turn.query}
      </div>
      <article className="answer" aria-busy={turn.status === 'streaming'} aria-label="Answer">
        {turn.answer ? (
          <div ref={answerRef} className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
        ) : null}
        {turn.status === 'streaming' && !turn.answer ? <p className="typing">Searching the documents…</p> : null}
        {turn.status === 'stopped' ? (
          <p className="hint">Stopped. An answer that was not completed is not saved.</p>
        ) : null}
        {turn.status === 'error' ? (
          <p className="alert alert-error" role="alert">
            {turn.error}
          </p>
        ) : null}
        <Sources turnKey={turn.key} sources={turn.sources} />
        {turn.status === 'done' ? (
          <div className="answer-meta">
            {onRate ? <FeedbackButtons feedback={turn.feedback ?? null} onRate={onRate} /> : null}
            <button
              type="button"
              className="subtle small"
              aria-expanded={showDetails}
              onClick={() => setShowDetails((shown) => !shown)}
            >
              {showDetails ? 'Hide details' : 'Token budget and timing'}
            </button>
            {showDetails ? <Details turn={turn} /> : null}
          </div>
        ) : null}
      </article>
    </li>
  );
}
