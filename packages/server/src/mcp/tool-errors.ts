import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DocqaError, type Logger } from '@docqa/plugin-api';

/**
 * A failure as the tool's answer (`isError`), which MCP clients hand to the model so it can tell
 * the user or try otherwise: a refusal or a bad argument says what the REST API would say, with
 * its code; anything unexpected is logged and answered without internals.
 */
export function toolError(error: unknown, tool: string, logger: Logger): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: failureMessage(error, `MCP tool ${tool}`, logger) }] };
}

/** The sentence a DocqaError carries (with its code and field errors), or a generic one for a bug. */
export function failureMessage(error: unknown, what: string, logger: Logger): string {
  if (!DocqaError.is(error)) {
    logger.error({ err: error }, `${what} failed`);
    return 'An internal error stopped this request; the DocQA server log has the details.';
  }
  if (error.status >= 500) logger.warn({ code: error.code, detail: error.message }, `${what} failed`);
  const fields = error.errors?.map((field) => `${field.field} ${field.message}`).join('; ');
  return `${error.message}${fields ? ` (${fields})` : ''} [${error.code}]`;
}
