import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import { Alert, Loading } from '../../components/ui';

/** Characters shown either side of the passage at first, and added by each "more" button. */
const context = 4000;
/** The API's largest page of text. */
const maxWindow = 100_000;

interface Props {
  documentId: string;
  start: number;
  end: number;
  totalChars: number;
}

/**
 * The extracted text around the cited range, with the range marked and scrolled into view: the view
 * for every format but PDF. Earlier and later text loads on demand (a long document is not fetched whole).
 */
export function TextView({ documentId, start, end, totalChars }: Props) {
  const [range, setRange] = useState(() => ({
    from: Math.max(0, start - context),
    to: Math.min(totalChars, end + context),
  }));
  const [text, setText] = useState<{ from: number; value: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const markRef = useRef<HTMLElement>(null);
  const scrolled = useRef(false);

  useEffect(() => {
    let live = true;
    const limit = Math.max(1, Math.min(maxWindow, range.to - range.from));
    api.documentView
      .content(documentId, range.from, limit)
      .then((content) => live && setText({ from: content.offset, value: content.text }))
      .catch((reason: unknown) => live && setError(describeError(reason)));
    return () => {
      live = false;
    };
  }, [documentId, range.from, range.to]);

  useEffect(() => {
    if (!text || scrolled.current || !markRef.current) return;
    scrolled.current = true;
    markRef.current.scrollIntoView({ block: 'center' });
  }, [text]);

  if (error) return <Alert>{error}</Alert>;
  if (!text) return <Loading label="Loading the text…" />;
  const at = (offset: number) => Math.min(text.value.length, Math.max(0, offset - text.from));
  const grow = (side: 'before' | 'after') =>
    setRange((current) =>
      side === 'before'
        ? { from: Math.max(0, current.from - context, current.to - maxWindow), to: current.to }
        : { from: current.from, to: Math.min(totalChars, current.to + context, current.from + maxWindow) },
    );
  return (
    <section className="text-view" aria-label="Document text">
      {text.from > 0 ? (
        <button type="button" className="subtle small" onClick={() => grow('before')}>
          Show earlier text
        </button>
      ) : null}
      <pre className="document-text">
        {text.value.slice(0, at(start))}
        <mark ref={markRef} className="passage" data-start={start} data-end={end}>
          {text.value.slice(at(start), at(end))}
        </mark>
        {text.value.slice(at(end))}
      </pre>
      {text.from + text.value.length < totalChars ? (
        <button type="button" className="subtle small" onClick={() => grow('after')}>
          Show later text
        </button>
      ) : null}
    </section>
  );
}
