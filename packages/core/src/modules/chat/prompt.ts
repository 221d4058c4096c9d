import type { ChatMessage, GroundingPassage } from '@docqa/plugin-api';

/** What the model is told once per request; the passages and the question follow in the user turn. */
export const systemPrompt = [
  "You are DocQA, an assistant that answers questions from an organisation's documents.",
  'Answer only from the numbered passages in the last message. After each statement, cite the passages it comes from as [n].',
  'If the passages do not contain the answer, say that the documents do not answer the question; do not guess.',
  'Answer in the language of the question, concisely.',
].join(' ');

export interface PromptPassage {
  title: string;
  path: string;
  text: string;
}

export interface PriorTurn {
  query: string;
  answer: string;
}

/** One passage as the model sees it: its citation number, where it comes from, its text. */
export function formatPassage(index: number, passage: PromptPassage): string {
  return `[${index}] ${passage.title} (${passage.path})\n${passage.text.trim()}`;
}

export function formatQuestion(question: string, passageBlocks: readonly string[]): string {
  const passages = passageBlocks.length > 0 ? passageBlocks.join('\n\n') : '(no passages)';
  return `Passages:\n\n${passages}\n\nQuestion: ${question.trim()}`;
}

/** System prompt, earlier turns as they were asked and answered, then passages and the question. */
export function buildMessages(
  question: string,
  passages: readonly PromptPassage[],
  history: readonly PriorTurn[],
): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    ...history.flatMap((turn): ChatMessage[] => [
      { role: 'user', content: turn.query },
      { role: 'assistant', content: turn.answer },
    ]),
    {
      role: 'user',
      content: formatQuestion(
        question,
        passages.map((passage, index) => formatPassage(index + 1, passage)),
      ),
    },
  ];
}

/**
 * The passages numbered as buildMessages numbers them, each with its chunk's stored language when
 * search read one (`languages`, by chunk id), so the answerer need not detect it again.
 */
export function groundingOf(
  question: string,
  passages: readonly (PromptPassage & { chunk_id: string })[],
  languages: ReadonlyMap<string, string | null>,
): { question: string; passages: GroundingPassage[] } {
  return {
    question,
    passages: passages.map(({ chunk_id, title, text }, index) => {
      const language = languages.get(chunk_id);
      return { index: index + 1, title, text, ...(language === undefined ? {} : { language }) };
    }),
  };
}
