import { classifyQuery, type RuleRunner } from '../../index.js';
import type { LlmBackend, Logger } from '@docqa/plugin-api';
import type { RulesService } from '../rules/contract.js';
import { collectAnswer } from './generation.js';

export interface Classification {
  /** Metadata filters the query implies: field → value. */
  filters: Record<string, string>;
  /** Fields the rules found more than one value for, and how each was settled. */
  ambiguous: Record<string, { candidates: string[]; chosen: string | null; by: 'priority' | 'llm' }>;
}

const classifierPrompt =
  'You classify questions about documents. Reply with exactly one of the listed values, copied verbatim, or with the word none. Reply with nothing else.';

/**
 * The classify stage: rules' query patterns turn the query into filters, deterministically (the
 * highest-priority rule's first value wins a field). With RAG_CLASSIFIER_LLM_ENABLED and a
 * generative backend, a field the query names several values for is put to the model; its reply
 * counts only when it is one of the candidates, and "none" (or anything else) leaves the field
 * unfiltered rather than guessing.
 */
export class QueryClassifier {
  constructor(
    private readonly rules: RulesService,
    private readonly runner: RuleRunner,
    private readonly logger: Logger,
  ) {}

  async classify(
    query: string,
    llm: { backend: LlmBackend; maxTokens: number } | null,
    signal: AbortSignal,
  ): Promise<Classification> {
    const rules = await this.rules.allRules();
    if (rules.length === 0) return { filters: {}, ambiguous: {} };
    const { filters, candidates, failures } = await classifyQuery(rules, query, { runner: this.runner });
    for (const failure of failures)
      this.logger.warn(
        { rule: failure.ruleId, error: failure.error },
        'a metadata rule failed on a query; classification went on without it',
      );
    const ambiguous: Classification['ambiguous'] = {};
    for (const [field, values] of Object.entries(candidates)) {
      if (values.length < 2) continue;
      if (!llm) {
        ambiguous[field] = { candidates: values, chosen: filters[field] ?? null, by: 'priority' };
        continue;
      }
      const chosen = await this.#askModel(llm, query, field, values, signal);
      ambiguous[field] = { candidates: values, chosen, by: 'llm' };
      if (chosen === null) delete filters[field];
      else filters[field] = chosen;
    }
    return { filters, ambiguous };
  }

  async #askModel(
    llm: { backend: LlmBackend; maxTokens: number },
    query: string,
    field: string,
    values: string[],
    signal: AbortSignal,
  ): Promise<string | null> {
    const question = `Question: ${query}\n\nWhich ${field} does the question ask about? Values:\n${values.map((value) => `- ${value}`).join('\n')}`;
    try {
      const reply = await collectAnswer(
        llm.backend,
        {
          messages: [
            { role: 'system', content: classifierPrompt },
            { role: 'user', content: question },
          ],
          maxTokens: llm.maxTokens,
          temperature: 0,
        },
        signal,
      );
      return pickCandidate(reply, values);
    } catch (error) {
      if (signal.aborted) throw error;
      // The classifier only refines retrieval: a model failure here falls back to no filter.
      this.logger.warn(
        { field, error: error instanceof Error ? error.message : String(error) },
        'the model could not classify an ambiguous query; that field is not filtered',
      );
      return null;
    }
  }
}

/** The candidate the reply names: an exact reply first, else the longest candidate it contains. */
export function pickCandidate(reply: string, candidates: readonly string[]): string | null {
  const cleaned = reply
    .trim()
    .replace(/^["'`]+|["'`.]+$/g, '')
    .trim();
  const exact = candidates.find((candidate) => candidate.toLowerCase() === cleaned.toLowerCase());
  if (exact !== undefined) return exact;
  const contained = candidates
    .filter((candidate) => cleaned.toLowerCase().includes(candidate.toLowerCase()))
    .sort((a, b) => b.length - a.length);
  // Two different candidates in one reply is no choice at all.
  if (
    contained.length === 1 ||
    (contained.length > 1 &&
      contained.slice(1).every((other) => contained[0]!.toLowerCase().includes(other.toLowerCase())))
  )
    return contained[0] ?? null;
  return null;
}
