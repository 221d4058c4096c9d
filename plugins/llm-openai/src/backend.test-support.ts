import { createServer } from 'node:net';
import { expect } from 'chai';
import { createOutboundPolicy, type GenerateRequest, type LlmBackend, type Logger } from '@docqa/plugin-api';
import type { ChatCompletionsServer } from '@docqa/plugin-testkit';
import llmOpenAiPlugin, { type LlmOpenAiOptionsInput } from './index.js';

export const apiKey = 'sk-test-llm-0123456789abcdefSECRET';
export const model = 'gpt-test-chat';

export const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a quiet logger. */
export async function startBackend(options: LlmOpenAiOptionsInput, logger: Logger = quietLogger): Promise<LlmBackend> {
  return llmOpenAiPlugin.init({
    options: llmOpenAiPlugin.configSchema.parse(options),
    instanceId: 'llm-openai',
    // No OUTBOUND_ALLOW: the base URL's host (loopback) is allowed because the options name it.
    deps: { outbound: createOutboundPolicy([]) },
    logger,
    onStop: () => {},
    signal: new AbortController().signal,
  });
}

/** Options for the loopback server, without retries unless a test asks for them. */
export const optionsFor = (
  server: ChatCompletionsServer,
  extra: Partial<LlmOpenAiOptionsInput> = {},
): LlmOpenAiOptionsInput => ({
  baseUrl: server.baseUrl,
  apiKey,
  model,
  maxRetries: 0,
  ...extra,
});

export const question =
  'Passages:\n[1] Invoices: Invoices are archived for ten years in the finance vault.\n[2] Passwords: Reset your password from the sign-in page.\n\nQuestion: How long are invoices archived?';

export const requestOf = (maxTokens = 64, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [
    { role: 'system', content: 'Answer from the numbered passages only and cite them as [n].' },
    { role: 'user', content: question },
  ],
  maxTokens,
  ...extra,
});

export async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of iterable) pieces.push(piece);
  return pieces;
}

/** The pieces yielded before the iteration failed, and the failure. */
export async function collectUntilFailure(
  iterable: AsyncIterable<string>,
): Promise<{ pieces: string[]; failure: unknown }> {
  const pieces: string[] = [];
  try {
    for await (const piece of iterable) pieces.push(piece);
  } catch (failure) {
    return { pieces, failure };
  }
  return expect.fail(`expected a failure after ${JSON.stringify(pieces)}`);
}

/** Everything an error shows: message, stack, JSON and causes. */
export function everythingIn(error: unknown): string {
  const parts: string[] = [];
  for (
    let current: unknown = error, depth = 0;
    current !== undefined && depth < 5;
    current = (current as Error).cause, depth += 1
  ) {
    parts.push(String((current as Error).message), String((current as Error).stack), JSON.stringify(current));
  }
  return parts.join('\n');
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
