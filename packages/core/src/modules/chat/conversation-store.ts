import crypto from 'node:crypto';
import { DocqaError, type AuditService, type Db } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import { feedbackOf, setTurnFeedback, type FeedbackInput, type TurnFeedback } from './feedback.js';

/** One question and its answer, with what the answer was built from. */
export interface ConversationTurn {
  query: string;
  rewritten_query: string | null;
  answer: string;
  sources: unknown[];
  retrieval_settings: Record<string, unknown>;
  token_budget: Record<string, unknown> | null;
  timing: Record<string, number>;
  created_at: string;
  /** The owner's thumbs up or down on the answer, null when none. */
  feedback: TurnFeedback | null;
}

export interface ConversationSummary {
  id: string;
  title: string;
  turns: number;
  created_at: string;
  updated_at: string;
}

export interface Conversation extends Omit<ConversationSummary, 'turns'> {
  turns: ConversationTurn[];
}

/** Titles are the first question, cut at a word near this length. */
const titleLength = 80;

interface TurnRow {
  query: string;
  rewritten_query: string | null;
  answer: string;
  sources: unknown[];
  retrieval_settings: Record<string, unknown>;
  token_budget: Record<string, unknown> | null;
  timing: Record<string, number>;
  /** timestamptz arrives as text from the kernel's database layer. */
  created_at: string;
  feedback_rating: 'up' | 'down' | null;
  feedback_comment: string | null;
  feedback_at: string | null;
}

/**
 * Conversations belong to one user: every read and write names the owner, so another user's id
 * is indistinguishable from an unknown one (both 404).
 */
export class ConversationStore {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  /** Whose conversation `id` is: the user's own, another user's, or nobody's yet. */
  async ownership(userId: string, id: string): Promise<'own' | 'another user' | 'none'> {
    const { rows } = await this.db.query<{ user_id: string }>('select user_id from conversation where id = $1', [id]);
    const owner = rows[0]?.user_id;
    return owner === undefined ? 'none' : owner === userId ? 'own' : 'another user';
  }

  /** The newest `count` turns, oldest first (the order a prompt or a rewrite reads them in). */
  async recentTurns(userId: string, id: string, count: number): Promise<ConversationTurn[]> {
    if (count <= 0) return [];
    const { rows } = await this.db.query<TurnRow>(
      `select t.* from conversation_turn t join conversation c on c.id = t.conversation_id
       where t.conversation_id = $1 and c.user_id = $2 order by t.position desc limit $3`,
      [id, userId, count],
    );
    return rows.reverse().map(toTurn);
  }

  /**
   * Appends a turn and keeps only the newest `maxTurns`. A null `id` starts a conversation under a
   * new id; with `create`, the conversation is created under the id the client chose (a race with
   * another user choosing the same id leaves it theirs, and this answer 404). The conversation row is locked
   * so two answers finishing together get distinct positions. A conversation that existed when its
   * answer began and was deleted meanwhile is not brought back.
   */
  async appendTurn(
    userId: string,
    target: { id: string | null; create: boolean },
    turn: Omit<ConversationTurn, 'created_at' | 'feedback'>,
    maxTurns: number,
  ): Promise<string> {
    const conversationId = target.id;
    if (conversationId === null) return this.#startWithTurn(userId, turn);
    return this.db.transaction(async (tx) => {
      // One statement locks the conversation row (two answers finishing together wait for each
      // other, as `select … for update` made them) and stamps it; with `create` it inserts the row
      // first, and a row of another user's under that id is left alone and returns nothing.
      const { rowCount } = await tx.query(
        target.create
          ? `insert into conversation (id, user_id, title) values ($1, $2, $3)
             on conflict (id) do update set updated_at = now() where conversation.user_id = $2`
          : 'update conversation set updated_at = now() where id = $1 and user_id = $2',
        target.create ? [conversationId, userId, titleOf(turn.query)] : [conversationId, userId],
      );
      if (rowCount === 0) {
        throw new DocqaError(
          'not_found',
          target.create
            ? `Conversation ${conversationId} was not found.`
            : `Conversation ${conversationId} was deleted while it was answered.`,
        );
      }
      // The turn and the trimming of the oldest in one statement. Its own statement after the lock,
      // so its snapshot sees the turns an answer that held the lock before committed. The delete
      // does not see the new row (one snapshot), and maxTurns >= 1 never reaches it anyway.
      await tx.query(
        `with added as (
           insert into conversation_turn (id, conversation_id, position, query, rewritten_query, answer, sources,
             retrieval_settings, token_budget, timing)
           select $1, $2, coalesce(max(position), 0) + 1, $3, $4, $5, $6, $7, $8, $9
           from conversation_turn where conversation_id = $2
           returning position)
         delete from conversation_turn t using added
         where t.conversation_id = $2 and t.position <= added.position - $10`,
        [...turnValues(conversationId, turn), maxTurns],
      );
      return conversationId;
    });
  }

  /**
   * A conversation under a new id with its first turn, in one statement and so without a transaction
   * (BEGIN, two statements and COMMIT before): nobody else knows the id yet, so there is no row to
   * lock or race with, and one turn needs no trimming.
   */
  async #startWithTurn(userId: string, turn: Omit<ConversationTurn, 'created_at' | 'feedback'>): Promise<string> {
    const conversationId = crypto.randomUUID();
    await this.db.query(
      `with started as (insert into conversation (id, user_id, title) values ($2, $10, $11) returning id)
       insert into conversation_turn (id, conversation_id, position, query, rewritten_query, answer, sources,
         retrieval_settings, token_budget, timing)
       select $1, started.id, 1, $3, $4, $5, $6, $7, $8, $9 from started`,
      [...turnValues(conversationId, turn), userId, titleOf(turn.query)],
    );
    return conversationId;
  }

  async list(userId: string, limit: number, offset: number): Promise<{ items: ConversationSummary[]; total: number }> {
    const [{ rows }, total] = await Promise.all([
      this.db.query<{ id: string; title: string; turns: string; created_at: string; updated_at: string }>(
        `select c.id, c.title, c.created_at, c.updated_at, (select count(*) from conversation_turn t where t.conversation_id = c.id) as turns
         from conversation c where c.user_id = $1 order by c.updated_at desc, c.id limit $2 offset $3`,
        [userId, limit, offset],
      ),
      this.db.query<{ count: string }>('select count(*) from conversation where user_id = $1', [userId]),
    ]);
    return {
      items: rows.map((row) => ({
        id: row.id,
        title: row.title,
        turns: Number(row.turns),
        created_at: iso(row.created_at),
        updated_at: iso(row.updated_at),
      })),
      total: Number(total.rows[0]?.count ?? 0),
    };
  }

  async get(userId: string, id: string): Promise<Conversation> {
    const { rows } = await this.db.query<{ id: string; title: string; created_at: string; updated_at: string }>(
      'select * from conversation where id = $1 and user_id = $2',
      [id, userId],
    );
    const row = rows[0];
    if (!row) throw new DocqaError('not_found', `Conversation ${id} was not found.`);
    const turns = await this.db.query<TurnRow>(
      'select * from conversation_turn where conversation_id = $1 order by position',
      [id],
    );
    return {
      id: row.id,
      title: row.title,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      turns: turns.rows.map(toTurn),
    };
  }

  async delete(userId: string, id: string): Promise<void> {
    const { rowCount } = await this.db.query('delete from conversation where id = $1 and user_id = $2', [id, userId]);
    if (rowCount === 0) throw new DocqaError('not_found', `Conversation ${id} was not found.`);
  }

  setFeedback(
    principal: Principal,
    target: { conversationId: string; index: number; clientIp: string | null },
    input: FeedbackInput,
  ): Promise<TurnFeedback | null> {
    return setTurnFeedback(this.db, this.audit, principal, target, input);
  }

  /** Deletes conversations without activity for `maxAgeDays`; answers how many went. */
  async purgeOlderThan(maxAgeDays: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `delete from conversation where updated_at < now() - make_interval(days => $1)`,
      [maxAgeDays],
    );
    return rowCount;
  }
}

/** $1 to $9 of a turn's insert: its id, its conversation's, then its fields. */
function turnValues(conversationId: string, turn: Omit<ConversationTurn, 'created_at' | 'feedback'>): unknown[] {
  return [
    crypto.randomUUID(),
    conversationId,
    turn.query,
    turn.rewritten_query,
    turn.answer,
    JSON.stringify(turn.sources),
    JSON.stringify(turn.retrieval_settings),
    turn.token_budget === null ? null : JSON.stringify(turn.token_budget),
    JSON.stringify(turn.timing),
  ];
}

function toTurn(row: TurnRow): ConversationTurn {
  return {
    query: row.query,
    rewritten_query: row.rewritten_query,
    answer: row.answer,
    sources: row.sources,
    retrieval_settings: row.retrieval_settings,
    token_budget: row.token_budget,
    timing: row.timing,
    created_at: iso(row.created_at),
    feedback: feedbackOf(row),
  };
}

function iso(timestamp: string): string {
  return new Date(timestamp).toISOString();
}

function titleOf(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  if (flat.length <= titleLength) return flat;
  const cut = flat.slice(0, titleLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > titleLength / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
