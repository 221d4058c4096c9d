/** The most words quoted from one passage, so that answers stay short whatever the prompt holds. */
const wordsQuotedPerPassage = 16;

/**
 * The answer the server gives when no fixed reply is set: for every numbered passage "[n]" the last
 * user message mentions (in order of first mention), "According to [n], <the start of that
 * passage's line>." — deterministic, and citing like a grounded model does, so tests can check what
 * reached the model and how citations come back.
 */
export function chatAnswerFor(messages: unknown): string {
  const question = lastUserText(messages);
  const numbers = [...new Set([...question.matchAll(/\[(\d+)\]/g)].map((match) => match[1]!))];
  if (numbers.length === 0) return 'No numbered passages were given, so there is nothing to cite.';
  return numbers.map((number) => `According to [${number}], ${gistOfPassage(question, number)}`).join(' ');
}

/**
 * Splits an answer into the pieces the server streams, one word with its leading white space each;
 * the server counts each piece as one token against max_tokens.
 */
export function answerPieces(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** Words in every message, the server's stand-in for prompt tokens. */
export function promptWords(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  return messages.reduce<number>((total, message) => total + answerPieces(textOf(message)).length, 0);
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const users = messages.filter((message) => (message as { role?: unknown })?.role === 'user');
  return users.length > 0 ? textOf(users[users.length - 1]) : '';
}

/** A message's text: a string content, or the text parts of a content array. */
function textOf(message: unknown): string {
  const content = (message as { content?: unknown })?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

/** The start of the line "[n] Title: text" (the text, without the title), or a stand-in when n is only mentioned. */
function gistOfPassage(question: string, number: string): string {
  const line = question.split('\n').find((candidate) => candidate.trimStart().startsWith(`[${number}]`));
  const passage = line
    ?.trimStart()
    .slice(`[${number}]`.length)
    .replace(/^\s*[^:.!?]{1,60}:\s+/, '')
    .trim();
  if (!passage) return 'the passage is relevant.';
  const words = answerPieces(passage).slice(0, wordsQuotedPerPassage).join('').trim();
  return /[.!?]$/.test(words) ? words : `${words}.`;
}
