import { AzureOpenAI, OpenAI } from 'openai';
import type { GuardedFetch } from '@docqa/plugin-api';
import type { OpenAiEmbedderOptions } from './config.js';

/**
 * The openai package's client for these options. Everything is passed explicitly so that no
 * OPENAI_* environment variable of the host changes where vectors come from or who pays for them.
 */
export function createEmbeddingsClient(options: OpenAiEmbedderOptions, fetch: GuardedFetch): OpenAI {
  const common = {
    // The process's outbound policy (OUTBOUND_ALLOW): a base URL on an internal address must be allowed there.
    fetch,
    apiKey: options.apiKey,
    timeout: options.timeoutSeconds * 1000,
    maxRetries: options.maxRetries,
    organization: null,
    project: null,
  };
  if (options.azure) {
    return new AzureOpenAI({
      ...common,
      endpoint: options.azure.endpoint,
      deployment: options.azure.deployment,
      apiVersion: options.azure.apiVersion,
    });
  }
  return new OpenAI({ ...common, baseURL: options.baseUrl ?? 'https://api.openai.com/v1' });
}

/** Where requests go, for logs and messages (never with the key). */
export function describeEndpoint(options: OpenAiEmbedderOptions): string {
  if (options.azure) return `Azure OpenAI ${options.azure.endpoint} (deployment ${options.azure.deployment})`;
  return options.baseUrl ?? 'https://api.openai.com/v1';
}
