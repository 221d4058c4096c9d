/**
 * Worker entry of the rule runner: runs one regular expression over one text per message. It lives in
 * a worker because a pathological pattern can backtrack for minutes inside a single `exec`, which no
 * code can interrupt; the parent terminates this thread when the time budget runs out.
 */
import { parentPort } from 'node:worker_threads';

export interface MatchRequest {
  id: number;
  source: string;
  flags: string;
  text: string;
  /** Every match (chunk-level and boundary rules) or only the first (document-level rules, queries). */
  all: boolean;
}

/** A match: where the whole match starts, and the captured group's trimmed text. */
export interface FoundMatch {
  index: number;
  value: string;
}

export type MatchReply = { id: number; matches: FoundMatch[] } | { id: number; error: string };

export function findMatches(request: Omit<MatchRequest, 'id'>): FoundMatch[] {
  const regex = new RegExp(request.source, `${request.flags.replace('g', '')}g`);
  const found: FoundMatch[] = [];
  for (const match of request.text.matchAll(regex)) {
    // Named or numbered, the rule has exactly one capturing group: the first slot after the match.
    const value = match[1]?.trim() ?? '';
    if (value === '') continue; // an empty capture says nothing about the field
    found.push({ index: match.index, value });
    if (!request.all) break;
  }
  return found;
}

const port = parentPort;
if (port) {
  port.on('message', (request: MatchRequest) => {
    let reply: MatchReply;
    try {
      reply = { id: request.id, matches: findMatches(request) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true });
}
