import { DocqaError, type AuditService, type Db } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';

/** A user's verdict on one answer; null rating means none (cleared). */
export interface TurnFeedback {
  rating: 'up' | 'down';
  comment: string | null;
  updated_at: string;
}

export interface FeedbackInput {
  rating: 'up' | 'down' | null;
  comment?: string | null;
}

/** Comments are a sentence or two for an admin to read, not a channel for documents. */
export const maxFeedbackCommentLength = 2000;

/**
 * Sets or clears the feedback on the turn at `index` (0-based, in the order the conversation shows
 * its turns) of the caller's own conversation. Another user's conversation is 404, as an unknown one.
 * Audited as `chat.feedback` with the rating only: the comment is the user's words, like a question.
 */
export async function setTurnFeedback(
  db: Db,
  audit: AuditService,
  principal: Principal,
  target: { conversationId: string; index: number; clientIp: string | null },
  input: FeedbackInput,
): Promise<TurnFeedback | null> {
  const { conversationId, index } = target;
  const rating = input.rating;
  const comment = rating === null ? null : (input.comment ?? '').trim() || null;
  if (comment !== null && comment.length > maxFeedbackCommentLength) {
    throw new DocqaError('validation_failed', `A comment has at most ${maxFeedbackCommentLength} characters.`);
  }
  const { rows } = await db.query<{
    feedback_rating: 'up' | 'down' | null;
    feedback_comment: string | null;
    feedback_at: string | null;
  }>(
    `update conversation_turn t set feedback_rating = $4, feedback_comment = $5,
       feedback_at = case when $4::text is null then null else now() end
     where t.id = (select t2.id from conversation_turn t2 join conversation c on c.id = t2.conversation_id
                   where t2.conversation_id = $1 and c.user_id = $2 order by t2.position offset $3 limit 1)
     returning feedback_rating, feedback_comment, feedback_at`,
    [conversationId, principal.userId, index, rating, comment],
  );
  const row = rows[0];
  if (!row) {
    const { rowCount } = await db.query('select 1 from conversation where id = $1 and user_id = $2', [
      conversationId,
      principal.userId,
    ]);
    throw new DocqaError(
      'not_found',
      rowCount === 0
        ? `Conversation ${conversationId} was not found.`
        : `Conversation ${conversationId} has no turn ${index}.`,
    );
  }
  await audit.record({
    type: 'chat.feedback',
    actor: { id: principal.userId, username: principal.username },
    ip: target.clientIp,
    target: conversationId,
    outcome: 'success',
    details: { turn: index, rating, with_comment: comment !== null },
  });
  return feedbackOf(row);
}

/** The feedback columns of a turn row as the API shows them. */
export function feedbackOf(row: {
  feedback_rating: 'up' | 'down' | null;
  feedback_comment: string | null;
  feedback_at: string | null;
}): TurnFeedback | null {
  if (row.feedback_rating === null || row.feedback_at === null) return null;
  return {
    rating: row.feedback_rating,
    comment: row.feedback_comment,
    updated_at: new Date(row.feedback_at).toISOString(),
  };
}
