import { z } from 'zod';

/** fetch refuses URLs with credentials in them, so such a URL could never work; say where the key goes instead. */
const withoutCredentials = (url: string): boolean => {
  // zod runs this check even after the URL check failed; an unparsable URL is reported by that one.
  if (!URL.canParse(url)) return true;
  const parsed = new URL(url);
  return parsed.username === '' && parsed.password === '';
};
const apiUrl = z
  .url({ protocol: /^https?$/ })
  .refine(withoutCredentials, 'must not contain a user name or password: put the key into apiKey');

/** Options of the hosted LLM backend; what zod can check stops start-up naming the instance. */
export const llmOpenAiOptionsSchema = z
  .strictObject({
    /**
     * An OpenAI-compatible API, including its version path (`http://127.0.0.1:8000/v1`); OpenAI's own when left out.
     */
    baseUrl: apiUrl.optional(),
    /** Never logged nor put into an error message (DocQA's HOSTED_API_KEY). */
    apiKey: z.string().min(1),
    /** The chat model; may be left out with azure, where the deployment decides. */
    model: z.string().min(1).optional(),
    /** Azure OpenAI instead of an OpenAI-compatible base URL. */
    azure: z
      .strictObject({
        /** The resource endpoint, `https://<resource>.openai.azure.com/`. */
        endpoint: apiUrl,
        deployment: z.string().min(1),
        apiVersion: z.string().min(1),
      })
      .optional(),
    /**
     * How long one answer may take, from sending the request to its last
     * piece, retries included (INFERENCE_TIMEOUT_SECONDS).
     */
    timeoutSeconds: z.number().int().min(1).max(3600).default(120),
    /**
     * Retries of a failed request (connection errors, 408, 409, 429, 5xx), only before the first piece of the answer.
     */
    maxRetries: z.number().int().min(0).max(10).default(2),
    /**
     * The model's context window in tokens, when known; reported by info(), not enforced here. With
     * discoverContext, the smaller of this and what the server reports.
     */
    contextLength: z.number().int().min(1).max(10_000_000).optional(),
    /**
     * What info() names the backend: `hosted` (default) for a hosted API, `local` for the bundled
     * llama.cpp inference server (DocQA's INFERENCE_URL), whose GET /props is read as well.
     */
    backend: z.enum(['hosted', 'local']).optional(),
    /**
     * Read the model's context from the server at start (server-model.ts): llama.cpp's /props and
     * /v1/models metadata, or a /v1/models entry's max_model_len or context_length (vLLM, OpenRouter,
     * LM Studio). Off by default; never with azure, whose API publishes none.
     */
    discoverContext: z.boolean().optional(),
    /** With discoverContext: read it again this often (a server restarted with another model); 0: at start only. */
    contextPollSeconds: z.number().int().min(0).max(86_400).optional(),
    /** Sampling temperature when a request names none; low, as answers should stay close to the passages. */
    temperature: z.number().min(0).max(2).default(0.2),
  })
  .refine((options) => !(options.azure && options.baseUrl), {
    message: 'baseUrl and azure exclude each other: azure.endpoint is the address of an Azure OpenAI resource',
    path: ['baseUrl'],
  })
  .refine((options) => options.azure !== undefined || options.model !== undefined, {
    message: 'model is required (HOSTED_MODEL), unless azure names a deployment',
    path: ['model'],
  });

export type LlmOpenAiOptions = z.output<typeof llmOpenAiOptionsSchema>;
export type LlmOpenAiOptionsInput = z.input<typeof llmOpenAiOptionsSchema>;

/**
 * The options from DocQA's configuration variables, for the preset that picks this plugin when
 * LLM_BACKEND=hosted. The kernel has parsed them already (HOSTED_API_KEY resolved from its secret);
 * unset ones are left out so that defaults apply and a missing required one is named by zod.
 * HOSTED_PROVIDER=azure reads HOSTED_BASE_URL as the resource endpoint and HOSTED_MODEL as the deployment.
 */
export function llmOpenAiOptionsFromVariables(variable: (name: string) => unknown): Record<string, unknown> {
  const defined = (entries: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  const common = { apiKey: variable('HOSTED_API_KEY'), timeoutSeconds: variable('INFERENCE_TIMEOUT_SECONDS') };
  if (variable('HOSTED_PROVIDER') === 'azure') {
    const azure = defined({
      endpoint: variable('HOSTED_BASE_URL'),
      deployment: variable('HOSTED_MODEL'),
      apiVersion: variable('HOSTED_API_VERSION'),
    });
    return defined({ ...common, azure });
  }
  return defined({ ...common, baseUrl: variable('HOSTED_BASE_URL'), model: variable('HOSTED_MODEL') });
}
