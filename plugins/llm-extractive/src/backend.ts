import type { ChatMessage, GenerateRequest, LlmBackend } from '@docqa/plugin-api';
import type { ExtractiveLlmOptions } from './config.js';
import { composeAnswer, cutToWords, wordPieces } from './compose-answer.js';
import { rankSentences } from './rank-sentences.js';

/**
 * An LLM backend without a language model: it quotes the sentences of the retrieved passages that
 * best match the question, with their citations. It never calls anything outside the process, so it
 * cannot fail the way a model server can, and it answers the same way every time.
 */
export function createExtractiveLlmBackend(options: ExtractiveLlmOptions): LlmBackend {
  return {
    capabilities: { streaming: true, tokenizer: false, generative: false },

    async info() {
      return { backend: 'extractive', model: 'extractive', contextLength: null, gpu: false };
    },

    async *generate(request, signal) {
      if (signal.aborted) return;
      // The whole answer is ready at once (it is quoted, not generated); streaming it word by word
      // keeps the chat pipeline's one code path for every backend, and each piece is one "token".
      const pieces = wordPieces(answerText(request, options)).slice(0, Math.max(0, request.maxTokens));
      for (const piece of pieces) {
        // Checked before every piece, so a client that goes away gets at most the piece in flight.
        if (signal.aborted) return;
        yield piece;
      }
    },
  };
}

function answerText(request: GenerateRequest, options: ExtractiveLlmOptions): string {
  const maxWords = Math.max(0, request.maxTokens);
  if (!request.grounding) return lastUserQuestion(request.messages);
  const { question, passages } = request.grounding;
  const ranked = rankSentences(question, passages, options);
  if (ranked.length === 0) return cutToWords(options.noAnswerText, maxWords);
  return composeAnswer(ranked, { maxSentences: options.maxSentences, maxWords });
}

/**
 * A request without grounding is not a question to answer from documents: DocQA sends those for
 * helper prompts such as rewriting a follow-up question or classifying a query. Without a model
 * this backend cannot follow such instructions, so it answers the question it was given, unchanged
 * — a no-op rewrite, which the caller can use as is, and which a classifier's parser will reject and
 * fall back from. When the message labels its question ("Question: …" at the start of a line, after
 * the context a prompt quotes), only the text after the last label is the question; otherwise the
 * whole message is. Over maxTokens it is cut at a word without an ellipsis, which would end up in
 * a search query.
 */
function lastUserQuestion(messages: readonly ChatMessage[]): string {
  const content = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const labels = [...content.matchAll(/^[ \t]*question:[ \t]*/gim)];
  const lastLabel = labels.at(-1);
  return (lastLabel ? content.slice(lastLabel.index + lastLabel[0].length) : content).trim();
}
