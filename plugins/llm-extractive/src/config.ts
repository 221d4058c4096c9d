import { z } from 'zod';

/** What the backend answers when no passage shares a word with the question. */
export const defaultNoAnswerText = 'No indexed document answers this question.';

/**
 * Options of the extractive backend. Strict, so that a chat-model option given to this instance by
 * mistake (a model path, a temperature) stops start-up instead of being silently ignored.
 */
export const extractiveLlmOptionsSchema = z.strictObject({
  /** The most sentences an answer quotes: enough to answer, short enough to read. */
  maxSentences: z.number().int().min(1).max(20).default(3),
  /**
   * Distinct stemmed question terms a sentence must share to be quoted. Capped at the number of terms
   * the question has, so a one-word question can still be answered when this is 2.
   */
  minMatchedTerms: z.number().int().min(1).max(10).default(1),
  /**
   * A sentence scoring below this share of the best sentence's score is left out, so a strong answer
   * is not padded with sentences that only share a common word with the question. 0 keeps every match.
   */
  minScoreRatio: z.number().min(0).max(1).default(0.3),
  /**
   * The least share of the question's weight (the idf of its terms over the passages' sentences; a
   * term no passage holds weighs most) the quoted passage must hold; below it the answer is
   * `noAnswerText` and the closest sources. 0 answers whenever a sentence shares a term.
   */
  minCoverage: z.number().min(0).max(1).default(0.2),
  /** What introduces the closest sources after `noAnswerText`. */
  closestSourcesText: z.string().trim().min(1).default('The closest sources:'),
  /** The fixed answer when nothing matches; change it to answer in another language. */
  noAnswerText: z.string().trim().min(1).default(defaultNoAnswerText),
});

export type ExtractiveLlmOptions = z.output<typeof extractiveLlmOptionsSchema>;
