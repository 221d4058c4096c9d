import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface Props {
  placeholder: string;
  streaming: boolean;
  onSend(query: string): void;
  onStop(): void;
}

/** The question box: Enter sends, Shift+Enter starts a new line; while an answer streams, Stop aborts it. */
export function Composer({ placeholder, streaming, onSend, onStop }: Props) {
  const [query, setQuery] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!streaming) ref.current?.focus({ preventScroll: true });
  }, [streaming]);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = query.trim();
    if (!text || streaming) return;
    onSend(text);
    setQuery('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="chat-question" className="visually-hidden">
        Question
      </label>
      <textarea
        id="chat-question"
        ref={ref}
        rows={2}
        maxLength={8000}
        placeholder={placeholder}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby="composer-hint"
      />
      <p id="composer-hint" className="visually-hidden">
        Enter sends the question; Shift and Enter starts a new line.
      </p>
      {streaming ? (
        <button type="button" className="danger" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" disabled={!query.trim()}>
          Send
        </button>
      )}
    </form>
  );
}
