import { useState } from 'react';
import { api } from '../../api/client';
import type { FeedbackReport as Report } from '../../api/types';
import { Alert, Loading } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { Link } from '../../lib/router';
import { useAsync } from '../../lib/use-async';

type Period = Report['period'];
const ranges: Record<Period, number> = { day: 30, week: 84, month: 365 };

/** Periods with ratings only, newest first: a month of mostly empty days reads better this way. */
function PeriodTable({ report }: { report: Report }) {
  const rated = report.periods.filter((period) => period.up + period.down > 0).reverse();
  if (rated.length === 0) return <p className="hint">No answer was rated in this range.</p>;
  return (
    <table className="feedback-periods">
      <caption className="visually-hidden">Ratings per {report.period}</caption>
      <thead>
        <tr>
          <th scope="col">{report.period === 'day' ? 'Day' : `${report.period === 'week' ? 'Week' : 'Month'} from`}</th>
          <th scope="col">Thumbs up</th>
          <th scope="col">Thumbs down</th>
        </tr>
      </thead>
      <tbody>
        {rated.map((period) => (
          <tr key={period.start}>
            <th scope="row">{period.start}</th>
            <td>{period.up}</td>
            <td>{period.down}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Admins: how users rated chat answers (GET /api/analytics/feedback), per period, and the latest
 * answers rated down with their question, sources and comment, to find what the documents miss.
 */
export function FeedbackReport() {
  const [period, setPeriod] = useState<Period>('day');
  const report = useAsync(() => api.feedbackReport({ period, days: ranges[period], limit: 20 }), [period]);
  const data = report.data;
  return (
    <section className="card report-card feedback-report" aria-labelledby="feedback-report">
      <h2 id="feedback-report">Answer feedback</h2>
      <div className="toolbar">
        <label>
          Per{' '}
          <select value={period} onChange={(event) => setPeriod(event.target.value as Period)}>
            <option value="day">day (last 30 days)</option>
            <option value="week">week (last 12 weeks)</option>
            <option value="month">month (last year)</option>
          </select>
        </label>
      </div>
      <Alert>{report.error}</Alert>
      {!data && !report.error ? <Loading /> : null}
      {data ? (
        <>
          <p className="feedback-totals">
            <strong>{data.totals.up}</strong> thumbs up, <strong>{data.totals.down}</strong> thumbs down
            {` in the last ${data.days} days.`}
          </p>
          <PeriodTable report={data} />
          <h3>Latest answers rated down</h3>
          {data.latest_down.length === 0 ? <p className="hint">None.</p> : null}
          <ol className="down-rated">
            {data.latest_down.map((turn) => (
              <li key={`${turn.conversation_id}-${turn.turn_index}`}>
                <p className="down-question">
                  <strong>{turn.query}</strong> <span className="hint">{formatDate(turn.rated_at)}</span>
                </p>
                <blockquote className="chunk-text">{turn.answer_excerpt}</blockquote>
                {turn.comment ? <p className="down-comment">Comment: {turn.comment}</p> : null}
                {turn.sources.length ? (
                  <p className="hint">
                    Sources:{' '}
                    {turn.sources.map((source, i) => (
                      <span key={`${source.document_id}-${source.index}`}>
                        {i > 0 ? ', ' : ''}[{source.index}]{' '}
                        {source.document_id ? (
                          <Link to={`/documents/${encodeURIComponent(source.document_id)}/view`}>
                            {source.title || source.path}
                          </Link>
                        ) : (
                          source.title || source.path
                        )}
                      </span>
                    ))}
                  </p>
                ) : (
                  <p className="hint">No sources: no passage answered the question.</p>
                )}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
