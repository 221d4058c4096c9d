import { LanguageDetector } from '@docqa/core';
import type { ChatMessage, GenerateRequest, GroundingPassage, LlmBackend } from '@docqa/plugin-api';
import type { ExtractiveLlmOptions } from './config.js';
import { composeAnswer, cutToWords, wordPieces } from './compose-answer.js';
import { answerFromPassages } from './rank-sentences.js';

/**
 * An LLM backend without a language model: it quotes the sentences of the retrieved passages that
 * best match the question, with their citations. It never calls anything outside the process, so it
 * cannot fail the way a model server can, and it answers the same way every time.
 */
export function createExtractiveLlmBackend(options: ExtractiveLlmOptions): LlmBackend {
  // Every language eld knows: the passages come from any document, whatever INDEX_LANGUAGES says.
  const detector = new LanguageDetector();
  return {
    capabilities: { streaming: true, tokenizer: false, generative: false },

    async info() {
      return { backend: 'extractive', model: 'extractive', contextLength: null, gpu: false };
    },

    async *generate(request, signal) {
      if (signal.aborted) return;
      // The whole answer is ready at once (it is quoted, not generated); streaming it word by word
      // keeps the chat pipeline's one code path for every backend, and each piece is one "token".
      const pieces = wordPieces(answerText(request, options, detector)).slice(0, Math.max(0, request.maxTokens));
      for (const piece of pieces) {
        // Checked before every piece, so a client that goes away gets at most the piece in flight.
        if (signal.aborted) return;
        yield piece;
      }
    },
  };
}

function answerText(request: GenerateRequest, options: ExtractiveLlmOptions, detector: LanguageDetector): string {
  const maxWords = Math.max(0, request.maxTokens);
  if (!request.grounding) return lastUserQuestion(request.messages);
  const { question, passages } = request.grounding;
  const { sentences, coverage } = answerFromPassages(question, passages, options, detector);
  if (sentences.length === 0 || coverage < options.minCoverage)
    return cutToWords(noAnswer(passages, options), maxWords);
  return composeAnswer(sentences, { maxSentences: options.maxSentences, maxWords });
}

/** Most passages named after "no document answers": enough to look further, short enough to read. */
const closestShown = 3;

/**
 * The plain "no document answers this", then the closest passages retrieval found, by their titles
 * and citation numbers, so the reader can open them and judge; no sentence of theirs is quoted, as
 * none of them answers.
 */
function noAnswer(passages: readonly GroundingPassage[], options: ExtractiveLlmOptions): string {
  const closest = [...passages].sort((a, b) => a.index - b.index).slice(0, closestShown);
  if (closest.length === 0) return options.noAnswerText;
  const named = closest.map((passage) => `${passage.title.replace(/\s+/g, ' ').trim()} [${passage.index}]`);
  return `${options.noAnswerText} ${options.closestSourcesText} ${named.join('; ')}.`;
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
