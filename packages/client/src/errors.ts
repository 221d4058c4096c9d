/**
 * Every failure the helpers report: an answer of the API other than 2xx (`status`, and the
 * `{detail, code}` body), or no answer at all (`status` null, code `network_error`).
 */
export class DocqaClientError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    detail: string,
    readonly body: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'DocqaClientError';
  }

  /** The error for a response that is not 2xx: its `{detail, code}` when the body has them. */
  static async fromResponse(response: Response): Promise<DocqaClientError> {
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    return DocqaClientError.fromBody(response, body);
  }

  static fromBody(response: Response, body: unknown): DocqaClientError {
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const detail =
      typeof fields.detail === 'string'
        ? fields.detail
        : `The server answered ${response.status} ${response.statusText}.`;
    const code = typeof fields.code === 'string' ? fields.code : 'http_error';
    return new DocqaClientError(response.status, code, detail, fields);
  }

  static network(baseUrl: string, cause: unknown): DocqaClientError {
    const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : '';
    const detail = `Could not reach DocQA at ${baseUrl}${reason ? ` (${reason})` : ''}.`;
    return new DocqaClientError(null, 'network_error', detail, {}, { cause });
  }
}
