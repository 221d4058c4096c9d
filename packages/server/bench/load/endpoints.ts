/** What npm run bench:load asks each endpoint: method, path, headers and, for POSTs, the bodies in turn. */
import type { LoadSpec } from './client.js';

export interface EndpointContext {
  /** A viewer's `Bearer …` header value. */
  authorization: string;
  /** SciFact's test claims. */
  queries: string[];
}

type Request = Omit<LoadSpec, 'origin' | 'clients' | 'seconds'>;

const endpoint = (label: string, request: (context: EndpointContext) => Request) => (context: EndpointContext) => ({
  label,
  request: request(context),
});

export const endpointSpecs = {
  search: endpoint('POST /api/search', ({ authorization, queries }) => ({
    method: 'POST',
    path: '/api/search',
    headers: { authorization },
    bodies: queries.map((query) => ({ query, top_k: 10 })),
  })),
  chat: endpoint('POST /api/chat (JSON)', ({ authorization, queries }) => ({
    method: 'POST',
    path: '/api/chat',
    headers: { authorization, accept: 'application/json' },
    bodies: queries.map((query) => ({ query })),
  })),
  'chat-sse': endpoint('POST /api/chat (SSE)', ({ authorization, queries }) => ({
    method: 'POST',
    path: '/api/chat',
    headers: { authorization, accept: 'text/event-stream' },
    bodies: queries.map((query) => ({ query })),
    sse: true,
  })),
  docs: endpoint('GET /api/docs (50 items)', ({ authorization }) => ({
    method: 'GET',
    path: '/api/docs?limit=50',
    headers: { authorization },
  })),
  version: endpoint('GET /api/version', () => ({ method: 'GET', path: '/api/version', headers: {} })),
} satisfies Record<string, (context: EndpointContext) => { label: string; request: Request }>;

export type EndpointName = keyof typeof endpointSpecs;
