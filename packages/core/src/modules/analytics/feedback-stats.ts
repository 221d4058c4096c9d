import type { Db } from '@docqa/plugin-api';
import type { FeedbackReport, FeedbackReportRequest } from './schemas.js';

/** How much of a down-rated answer the report shows: enough to recognise it, not the whole text. */
const answerExcerptLength = 300;

interface PeriodRow {
  start: string;
  up: string;
  down: string;
}

interface DownRow {
  conversation_id: string;
  turn_index: string;
  query: string;
  answer: string;
  sources: Array<Record<string, unknown>>;
  feedback_comment: string | null;
  feedback_at: string;
}

/**
 * Users' thumbs up and down on chat answers, over every conversation (an admin report). A turn counts
 * once, with its current rating, in the period it was last rated; periods start at UTC midnight (a
 * week on Monday), and empty ones are listed so a chart has no holes. Ratings go with their turns
 * when conversations are trimmed or purged.
 */
export async function feedbackReport(db: Db, request: FeedbackReportRequest): Promise<FeedbackReport> {
  const { period, days, limit } = request;
  const periods = await db.query<PeriodRow>(
    `with bounds as (
       select date_trunc($1::text, now() at time zone 'UTC') as last,
              date_trunc($1::text, (now() - make_interval(days => $2::int)) at time zone 'UTC') as first
     ), rated as (
       select date_trunc($1::text, t.feedback_at at time zone 'UTC') as start, t.feedback_rating
       from conversation_turn t, bounds b
       where t.feedback_rating is not null and t.feedback_at at time zone 'UTC' >= b.first
     )
     select to_char(p.start, 'YYYY-MM-DD') as start,
            count(r.feedback_rating) filter (where r.feedback_rating = 'up') as up,
            count(r.feedback_rating) filter (where r.feedback_rating = 'down') as down
     from bounds b, generate_series(b.first, b.last, ('1 ' || $1::text)::interval) p(start)
     left join rated r on r.start = p.start
     group by p.start order by p.start`,
    [period, days],
  );
  const latest = await db.query<DownRow>(
    `select t.conversation_id, t.query, left(t.answer, ${answerExcerptLength + 1}) as answer, t.sources,
            t.feedback_comment, t.feedback_at,
            (select count(*) from conversation_turn e
             where e.conversation_id = t.conversation_id and e.position < t.position) as turn_index
     from conversation_turn t where t.feedback_rating = 'down' order by t.feedback_at desc, t.id limit $1`,
    [limit],
  );
  const items = periods.rows.map((row) => ({ start: row.start, up: Number(row.up), down: Number(row.down) }));
  return {
    period,
    days,
    totals: {
      up: items.reduce((sum, item) => sum + item.up, 0),
      down: items.reduce((sum, item) => sum + item.down, 0),
    },
    periods: items,
    latest_down: latest.rows.map((row) => ({
      conversation_id: row.conversation_id,
      turn_index: Number(row.turn_index),
      rated_at: new Date(row.feedback_at).toISOString(),
      comment: row.feedback_comment,
      query: row.query,
      answer_excerpt:
        row.answer.length > answerExcerptLength ? `${row.answer.slice(0, answerExcerptLength)}…` : row.answer,
      sources: (row.sources ?? []).map((source) => ({
        index: Number(source.index ?? 0),
        document_id: String(source.document_id ?? ''),
        title: String(source.title ?? ''),
        path: String(source.path ?? ''),
      })),
    })),
  };
}
