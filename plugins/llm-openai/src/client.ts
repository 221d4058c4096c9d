import { AzureOpenAI, OpenAI } from 'openai';
import type { GuardedFetch } from '@docqa/plugin-api';
import type { LlmOpenAiOptions } from './config.js';

const openAiBaseUrl = 'https://api.openai.com/v1';

/**
 * The openai package's client for these options. Everything is passed explicitly so that no
 * OPENAI_* (or AZURE_OPENAI_*) environment variable of the host changes where prompts go, who pays
 * for them, or what is sent with them. Retries are this plugin's own (see generate.ts): the
 * package's would not know whether a piece of the answer was already passed on.
 */
export function createChatClient(options: LlmOpenAiOptions, fetch: GuardedFetch): OpenAI {
  const common = {
    // The process's outbound policy (OUTBOUND_ALLOW): a base URL on an internal address must be allowed there.
    fetch,
    apiKey: options.apiKey,
    // With an explicit null the package sends no admin key, organization or project of the host's.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: options.timeoutSeconds * 1000,
    // Failures reach the caller as DocqaErrors; the package must not write to the console (OPENAI_LOG).
    logLevel: 'off' as const,
  };
  if (options.azure) {
    return new AzureOpenAI({
      ...common,
      // A base URL instead of `endpoint`: AzureOpenAI would otherwise read OPENAI_BASE_URL (and refuse both).
      baseURL: `${options.azure.endpoint.replace(/\/+$/, '')}/openai`,
      deployment: options.azure.deployment,
      apiVersion: options.azure.apiVersion,
      defaultHeaders: undoHostCustomHeaders(['api-key', options.apiKey]),
    });
  }
  return new OpenAI({
    ...common,
    baseURL: options.baseUrl ?? openAiBaseUrl,
    defaultHeaders: undoHostCustomHeaders(['authorization', `Bearer ${options.apiKey}`]),
  });
}

/**
 * The openai package adds every header listed in OPENAI_CUSTOM_HEADERS to every request, and the
 * client's own default headers come after it: a null removes one again. A listed header named like
 * the key's header gets the key back, as a null would remove the key too.
 */
function undoHostCustomHeaders([keyHeader, keyValue]: [string, string]): Record<string, string | null> {
  const headers: Record<string, string | null> = {};
  for (const line of (process.env['OPENAI_CUSTOM_HEADERS'] ?? '').split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name) headers[name] = name === keyHeader ? keyValue : null;
  }
  return headers;
}

/** Where requests go, for info(), logs and messages: the base URL or the Azure endpoint, never with the key. */
export function endpointOf(options: LlmOpenAiOptions): string {
  return options.azure?.endpoint ?? options.baseUrl ?? openAiBaseUrl;
}

/** The model that answers: the Azure deployment, or the model option. */
export function modelOf(options: LlmOpenAiOptions): string {
  return options.azure?.deployment ?? options.model ?? '';
}

/** The model sent in the request body; Azure routes by deployment and ignores it. */
export function requestModelOf(options: LlmOpenAiOptions): string {
  return options.model ?? options.azure?.deployment ?? '';
}
