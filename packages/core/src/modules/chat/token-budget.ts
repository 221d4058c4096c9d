import { DocqaError } from '@docqa/plugin-api';
import { formatPassage, formatQuestion, systemPrompt, type PriorTurn, type PromptPassage } from './prompt.js';

/** The spec's token_budget object, plus how many earlier turns had to go too. */
export interface TokenBudgetReport {
  limit: number;
  estimated_prompt: number;
  reserved_completion: number;
  chunks_dropped: number;
  history_turns_dropped: number;
}

export interface BudgetRequest<P extends PromptPassage> {
  /** EFFECTIVE_N_CTX. */
  limit: number;
  /** Tokens the answer may use; never less than a quarter of `limit` is left to the prompt. */
  maxAnswerTokens: number;
  question: string;
  /** Best first: the last ones are dropped first. */
  passages: readonly P[];
  /** Oldest first: the first ones are dropped first, after every passage that could go. */
  history: readonly PriorTurn[];
  count(text: string): Promise<number>;
}

export interface BudgetOutcome<P extends PromptPassage> {
  passages: P[];
  history: PriorTurn[];
  reservedCompletion: number;
  estimatedPrompt: number;
  /** null when everything fit (the spec's "budget management was not applied"). */
  report: TokenBudgetReport | null;
}

/**
 * Chat templates wrap every message in role markers; this is what those cost per message in the
 * templates DocQA meets (ChatML spends 4–5; OpenAI documents 3–4), rounded up so a full prompt
 * never overflows by the markers alone.
 */
export const perMessageOverhead = 6;

/**
 * Fits system prompt, history, passages and the reserved completion into the context window:
 * the lowest-relevance passages go first, then the oldest turns. A question that cannot fit
 * even alone is refused (422) rather than sent to fail inside the model.
 */
export async function fitToBudget<P extends PromptPassage>(request: BudgetRequest<P>): Promise<BudgetOutcome<P>> {
  const reservedCompletion = Math.max(1, Math.min(request.maxAnswerTokens, Math.floor(request.limit / 4)));
  const available = request.limit - reservedCompletion;
  const fixed =
    (await request.count(systemPrompt)) +
    (await request.count(formatQuestion(request.question, []))) +
    2 * perMessageOverhead;
  const passageCosts = await Promise.all(
    request.passages.map((passage, index) => request.count(`${formatPassage(index + 1, passage)}\n\n`)),
  );
  const turnCosts = await Promise.all(
    request.history.map(
      async (turn) => (await request.count(turn.query)) + (await request.count(turn.answer)) + 2 * perMessageOverhead,
    ),
  );

  let keptPassages = request.passages.length;
  let firstTurn = 0;
  const total = () => fixed + sum(passageCosts.slice(0, keptPassages)) + sum(turnCosts.slice(firstTurn));
  while (total() > available && keptPassages > 0) keptPassages -= 1;
  while (total() > available && firstTurn < turnCosts.length) firstTurn += 1;
  const estimatedPrompt = total();
  if (estimatedPrompt > available) {
    throw new DocqaError(
      'validation_failed',
      `The question needs about ${estimatedPrompt} tokens, more than the ${available} the model's context window of ${request.limit} leaves after ${reservedCompletion} for the answer; shorten it.`,
      {
        errors: [{ field: 'body.query', message: "is too long for the model's context window" }],
      },
    );
  }
  const chunksDropped = request.passages.length - keptPassages;
  const report =
    chunksDropped > 0 || firstTurn > 0
      ? {
          limit: request.limit,
          estimated_prompt: estimatedPrompt,
          reserved_completion: reservedCompletion,
          chunks_dropped: chunksDropped,
          history_turns_dropped: firstTurn,
        }
      : null;
  return {
    passages: request.passages.slice(0, keptPassages),
    history: request.history.slice(firstTurn),
    reservedCompletion,
    estimatedPrompt,
    report,
  };
}

/**
 * A stand-in for a tokenizer when the backend has none (hosted APIs, the extractive backend):
 * about four characters per token for English prose, and never fewer tokens than words, so text
 * full of short words, numbers or other scripts is not under-counted.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  // One pass over the UTF-16 code units, counting what `text.split(/\s+/).filter(Boolean).length`
  // and `text.replace(/[\x00-\x7f]/g, '').length` count without their arrays and copies: chat
  // estimates every passage of every answer (2.7 % of the server's samples in chat on PostgreSQL).
  let words = 0;
  let nonAscii = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) nonAscii += 1;
    if (isWhiteSpace(code)) inWord = false;
    else if (!inWord) {
      inWord = true;
      words += 1;
    }
  }
  return Math.max(words, Math.ceil((text.length - nonAscii) / 4) + nonAscii);
}

/** What `\s` matches in JavaScript: ECMAScript's WhiteSpace (Unicode's Zs and the rest) and LineTerminator. */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
