import type { LlmBackend, Logger } from '@docqa/plugin-api';
import type { PriorTurn } from './prompt.js';
import { collectAnswer } from './generation.js';

const rewritePrompt = [
  'Rewrite the last question of the conversation as one standalone question that can be understood without the conversation:',
  'replace pronouns and references with what they refer to. Keep its language and meaning. Reply with the question only.',
].join(' ');

/** Earlier answers are cut to this many characters in the rewrite prompt: the question matters, not the detail. */
const answerExcerptLength = 400;
const rewriteMaxTokens = 96;

/**
 * Follow-up questions ("and for contractors?") retrieve badly on their own. A generative backend
 * rewrites them from the last turns; without one (the extractive backend), the previous question
 * is put in front of the follow-up so its terms still steer retrieval. A rewrite that comes back
 * empty or absurdly long is ignored.
 */
export async function rewriteFollowUp(
  query: string,
  turns: readonly PriorTurn[],
  backend: LlmBackend | null,
  signal: AbortSignal,
  logger: Logger,
): Promise<string | null> {
  const last = turns.at(-1);
  if (!last) return null;
  if (!backend?.capabilities.generative) return `${last.query.trim()} ${query.trim()}`;
  const conversation = turns.map((turn) => `User: ${turn.query}\nAssistant: ${excerpt(turn.answer)}`).join('\n');
  try {
    const reply = await collectAnswer(
      backend,
      {
        messages: [
          { role: 'system', content: rewritePrompt },
          { role: 'user', content: `Conversation:\n${conversation}\n\nLast question: ${query}` },
        ],
        maxTokens: rewriteMaxTokens,
        temperature: 0,
      },
      signal,
    );
    const rewritten =
      reply
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line !== '')
        ?.replace(/^(standalone )?question:\s*/i, '')
        .replace(/^["']|["']$/g, '') ?? '';
    if (rewritten === '' || rewritten.length > query.length * 4 + 400) return null;
    return rewritten;
  } catch (error) {
    if (signal.aborted) throw error;
    logger.warn(
      { error: error instanceof Error ? error.message : String(error) },
      'query rewrite failed; the question is used as asked',
    );
    return null;
  }
}

function excerpt(text: string): string {
  return text.length <= answerExcerptLength ? text : `${text.slice(0, answerExcerptLength)}…`;
}
