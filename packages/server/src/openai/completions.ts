import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import type { ChatOutcome, ChatSource, PriorTurn } from '@docqa/core/chat';

/** The one model: DocQA's pipeline over every document the caller may read. */
export const docqaModel = 'docqa';
/** When the model was first offered (OpenAI's `created`), fixed so answers do not change between calls. */
export const modelCreated = Date.UTC(2026, 10, 26) / 1000;
const maxQuestionLength = 8000;

const contentPart = z.object({ type: z.string(), text: z.string().optional() });

const messageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z
    .union([z.string(), z.array(contentPart)])
    .nullable()
    .optional(),
});

/**
 * OpenAI's request; fields DocQA does not use (temperature, max_tokens, tools, user, …) are
 * accepted and ignored, as clients send them unasked. DocQA's own system prompt is used.
 */
export const completionRequest = z.object({
  model: z.string().min(1).max(200),
  messages: z.array(messageSchema).min(1).max(500),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
  n: z.literal(1).nullable().optional().describe('One choice only.'),
});
export type CompletionRequest = z.output<typeof completionRequest>;
type Message = z.output<typeof messageSchema>;

function invalid(message: string, param: string): DocqaError {
  return new DocqaError('validation_failed', message, { errors: [{ field: `body.${param}`, message }] });
}

function textOf(message: Message, index: number): string {
  if (typeof message.content === 'string') return message.content;
  if (!message.content) return '';
  const other = message.content.find((part) => part.type !== 'text');
  if (other) {
    const detail = `Only text content is supported; messages[${index}] holds a "${other.type}" part.`;
    throw invalid(detail, `messages.${index}.content`);
  }
  return message.content.map((part) => part.text ?? '').join('');
}

/**
 * The question is the last message, a user's; earlier user messages with the assistant's answers
 * after them are the conversation, for follow-up rewriting and the prompt. System, developer and
 * tool messages are left out: DocQA answers from the documents under its own instructions.
 */
export function questionAndHistory(messages: readonly Message[]): { question: string; history: PriorTurn[] } {
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex]!;
  const content = `messages.${lastIndex}.content`;
  const role = `messages.${lastIndex}.role`;
  if (last.role !== 'user') throw invalid("The last message must be the user's question.", role);
  const question = textOf(last, lastIndex);
  if (question.trim().length === 0) throw invalid('The last user message is empty.', content);
  if (question.length > maxQuestionLength) {
    throw invalid(`The question is longer than ${maxQuestionLength} characters.`, content);
  }
  const history: PriorTurn[] = [];
  let asked: string | null = null;
  messages.slice(0, lastIndex).forEach((message, index) => {
    if (message.role === 'user') asked = textOf(message, index);
    else if (message.role === 'assistant' && asked !== null) {
      history.push({ query: asked, answer: textOf(message, index) });
      asked = null;
    }
  });
  return { question, history };
}

export function checkModel(model: string): void {
  if (model !== docqaModel) {
    const detail = `The model "${model}" does not exist; GET /api/openai/v1/models lists them ("${docqaModel}").`;
    throw new DocqaError('not_found', detail, { extra: { openai_code: 'model_not_found' } });
  }
}

/** The cited passages, numbered as the answer's [n] markers. */
export type DocqaSource = ChatSource;

export function completion(id: string, created: number, outcome: ChatOutcome) {
  return {
    id,
    object: 'chat.completion' as const,
    created,
    model: docqaModel,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: outcome.answer, refusal: null },
        logprobs: null,
        finish_reason: 'stop' as const,
      },
    ],
    usage: outcome.usage,
    docqa_sources: outcome.sources satisfies DocqaSource[],
  };
}

type ChunkChoice = { delta: Record<string, unknown>; finish_reason: 'stop' | null };

/** One streamed `chat.completion.chunk`; without a choice, the usage chunk. */
export function chunk(id: string, created: number, choice: ChunkChoice | null, extra: Record<string, unknown> = {}) {
  return {
    id,
    object: 'chat.completion.chunk' as const,
    created,
    model: docqaModel,
    system_fingerprint: null,
    choices: choice ? [{ index: 0, delta: choice.delta, logprobs: null, finish_reason: choice.finish_reason }] : [],
    ...extra,
  };
}
