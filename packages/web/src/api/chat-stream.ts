import { authorizedFetch, errorFrom } from './http';
import type { ChatMeta } from './types';

export interface ChatRequest {
  query: string;
  conversation_id?: string | null;
  top_k?: number;
}

export interface StreamHandlers {
  onDelta(text: string): void;
  onDone(meta: ChatMeta): void;
  onError(detail: string): void;
}

/**
 * POST /api/chat with Accept: text/event-stream, read with fetch's stream (EventSource cannot POST).
 * Events are blank-line separated `event:`/`data:` fields; `:` lines are keep-alive comments.
 * Aborting the signal stops the request, and the server stops generating.
 * Errors known before the stream starts (validation, an unknown conversation) throw ApiError.
 */
export async function streamChat(body: ChatRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  const res = await authorizedFetch('/api/chat', {
    method: 'POST',
    body,
    headers: { accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok) throw await errorFrom(res);
  if (!res.body) throw new Error('The browser gave no response stream.');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let finished = false;
  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    const payload = JSON.parse(data.join('\n')) as Record<string, unknown>;
    if (type === 'delta') handlers.onDelta(String(payload.text ?? ''));
    else if (type === 'done') {
      finished = true;
      handlers.onDone(payload as unknown as ChatMeta);
    } else if (type === 'error') {
      finished = true;
      handlers.onError(String(payload.detail ?? 'The answer failed.'));
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      dispatch(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
  if (buffer.trim()) dispatch(buffer);
  if (!finished) handlers.onError('The answer stream ended early.');
}
