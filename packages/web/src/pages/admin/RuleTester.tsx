import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { describeError } from '../../api/http';
import type { RuleInput, RuleTestResult } from '../../api/types';
import { Field } from '../../components/ui';

/** What the rule would extract from a sample, asked again (debounced) as the rule or sample changes. */
export function RuleTester({ sourceId, rule }: { sourceId: string; rule: RuleInput }) {
  const [sample, setSample] = useState(
    'Contract: A-1042\nDepartment: Finance\n\n# Terms\nInvoices are archived for ten years.',
  );
  const [filename, setFilename] = useState('contract-a-1042.txt');
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ruleKey = JSON.stringify(rule);

  useEffect(() => {
    if (!rule.pattern || !rule.field_name || !sample) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.rules.test(sourceId, rule, sample, filename || undefined, controller.signal).then(
        (answer) => {
          setResult(answer);
          setError(null);
        },
        (reason: unknown) => {
          if (!controller.signal.aborted) {
            setResult(null);
            setError(describeError(reason));
          }
        },
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // The rule is compared by value (ruleKey), not by object identity.
  }, [sourceId, ruleKey, sample, filename]);

  return (
    <section className="card stack" aria-labelledby="tester-heading">
      <h2 id="tester-heading">Live preview</h2>
      <Field label="Sample text">
        {(id) => (
          <textarea id={id} className="code" rows={6} value={sample} onChange={(e) => setSample(e.target.value)} />
        )}
      </Field>
      <Field label="Sample file name" hint="For rules whose scope is the file name.">
        {(id, hint) => (
          <input id={id} aria-describedby={hint} value={filename} onChange={(e) => setFilename(e.target.value)} />
        )}
      </Field>
      <div aria-live="polite" className="preview">
        {error ? <p className="error-text">{error}</p> : null}
        {result?.error ? <p className="error-text">{result.error}</p> : null}
        {result && !result.error ? (
          <>
            <p>
              <strong>Document:</strong>{' '}
              {Object.keys(result.document).length
                ? Object.entries(result.document)
                    .map(([k, v]) => `${k} = ${v}`)
                    .join(', ')
                : 'no value'}
            </p>
            {result.boundaries.length ? (
              <p className="hint">Chunk boundaries at characters {result.boundaries.join(', ')}</p>
            ) : null}
            <ol className="preview-chunks">
              {result.chunks.map((chunk, i) => (
                <li key={i}>
                  <span className="chunk-values">
                    {Object.keys(chunk.values).length
                      ? Object.entries(chunk.values)
                          .map(([k, v]) => `${k} = ${v}${chunk.origin[k] === 'inherited' ? ' (inherited)' : ''}`)
                          .join(', ')
                      : 'no value'}
                  </span>
                  <pre>{chunk.text.length > 240 ? `${chunk.text.slice(0, 240)}…` : chunk.text}</pre>
                </li>
              ))}
            </ol>
          </>
        ) : null}
        {!rule.pattern ? <p className="hint">Type a pattern to see what it extracts.</p> : null}
      </div>
    </section>
  );
}
