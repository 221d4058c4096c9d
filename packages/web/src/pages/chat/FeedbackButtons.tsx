import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/http';
import type { FeedbackRating, TurnFeedback } from '../../api/types';

export type Rate = (rating: FeedbackRating | null, comment?: string) => Promise<TurnFeedback | null>;

/**
 * Thumbs up and down under an answer, stored with the turn (PUT …/turns/{index}/feedback). Pressing
 * the chosen one again clears it; after a thumbs down an optional comment says what was wrong.
 */
export function FeedbackButtons({ feedback, onRate }: { feedback: TurnFeedback | null; onRate: Rate }) {
  const [current, setCurrent] = useState<TurnFeedback | null>(feedback);
  const [comment, setComment] = useState(feedback?.comment ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');

  const send = async (rating: FeedbackRating | null, text?: string) => {
    setBusy(true);
    setError(null);
    try {
      const stored = await onRate(rating, text);
      setCurrent(stored);
      setSaved(stored ? (text ? 'Thanks, your comment was saved.' : 'Thanks for the feedback.') : 'Feedback removed.');
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (rating: FeedbackRating) => void send(current?.rating === rating ? null : rating);
  const submitComment = (event: FormEvent) => {
    event.preventDefault();
    void send('down', comment.trim());
  };

  return (
    <div className="feedback" role="group" aria-label="Rate this answer">
      <button
        type="button"
        className="subtle small thumb"
        aria-pressed={current?.rating === 'up'}
        aria-label="Good answer"
        title="Good answer"
        disabled={busy}
        onClick={() => toggle('up')}
      >
        <span aria-hidden="true">👍</span>
      </button>
      <button
        type="button"
        className="subtle small thumb"
        aria-pressed={current?.rating === 'down'}
        aria-label="Bad answer"
        title="Bad answer"
        disabled={busy}
        onClick={() => toggle('down')}
      >
        <span aria-hidden="true">👎</span>
      </button>
      {current?.rating === 'down' ? (
        <form className="feedback-comment" onSubmit={submitComment} aria-label="What was wrong">
          <input
            aria-label="What was wrong (optional)"
            placeholder="What was wrong? (optional)"
            maxLength={2000}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
          <button type="submit" className="subtle small" disabled={busy}>
            Send comment
          </button>
        </form>
      ) : null}
      <span className="hint" role="status" aria-live="polite">
        {error ?? saved}
      </span>
    </div>
  );
}
