import type { GenerateRequest, LlmBackend } from '@docqa/plugin-api';

/** The whole answer of one generation, for the stages that need text rather than a stream. */
export async function collectAnswer(
  backend: LlmBackend,
  request: GenerateRequest,
  signal: AbortSignal,
): Promise<string> {
  let text = '';
  for await (const piece of backend.generate(request, signal)) text += piece;
  return text;
}
