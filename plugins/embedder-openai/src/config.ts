import { z } from 'zod';

/** Options of the OpenAI-compatible embedder; what zod can check stops start-up naming the instance. */
export const openAiEmbedderOptionsSchema = z
  .strictObject({
    /** An OpenAI-compatible API, including its version path (`http://127.0.0.1:8000/v1`); OpenAI's own when left out. */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Never logged nor put into an error message (DocQA's HOSTED_API_KEY is the usual source). */
    apiKey: z.string().min(1),
    model: z.string().min(1),
    /** The length of the vectors the model answers; checked against every response. */
    dimensions: z.number().int().positive().max(65_536),
    /** Ask the API to shorten vectors to `dimensions` (OpenAI's text-embedding-3 models take it; many servers refuse it). */
    requestDimensions: z.boolean().default(false),
    /** Texts per request. */
    batchSize: z.number().int().min(1).max(2048).default(64),
    /** The model's input limit in tokens; longer texts are cut before sending (see truncation in README). */
    maxInputTokens: z.number().int().min(1).max(1_000_000).default(8191),
    /** How long one request may take. */
    timeoutSeconds: z.number().int().min(1).max(3600).default(60),
    /** Retries of a failed request (connection errors, 408, 409, 429, 5xx), with backoff. */
    maxRetries: z.number().int().min(0).max(10).default(2),
    /** Azure OpenAI instead of an OpenAI-compatible base URL. */
    azure: z
      .strictObject({
        /** The resource endpoint, `https://<resource>.openai.azure.com/`. */
        endpoint: z.url({ protocol: /^https?$/ }),
        deployment: z.string().min(1),
        apiVersion: z.string().min(1),
      })
      .optional(),
  })
  .refine((options) => !(options.azure && options.baseUrl), {
    message: 'baseUrl and azure exclude each other: azure.endpoint is the address of an Azure OpenAI resource',
    path: ['baseUrl'],
  });

export type OpenAiEmbedderOptions = z.output<typeof openAiEmbedderOptionsSchema>;
export type OpenAiEmbedderOptionsInput = z.input<typeof openAiEmbedderOptionsSchema>;
