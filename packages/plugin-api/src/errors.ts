/**
 * The one error type of DocQA. Every failure a user or operator can see carries a stable snake_case
 * code (documented in docs/errors.md) and, where it reaches HTTP, the status the decisions file fixes.
 */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  token_expired: 401,
  invalid_credentials: 401,
  forbidden: 403,
  plan_required: 403,
  plan_limit: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  file_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  // The database (or another upstream) did not answer within the request's limit.
  query_timeout: 504,
  // Start-up failures: never answered over HTTP, they stop the process with a message.
  config_invalid: 500,
  plugin_invalid: 500,
  plugin_failed: 500,
  module_invalid: 500,
  module_failed: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
}

export interface DocqaErrorOptions {
  cause?: unknown;
  /** Extra members of the JSON error body, such as `required_plan` or `limit`. */
  extra?: Record<string, unknown>;
  /** Field-level messages of a validation failure; answered as `errors`. */
  errors?: FieldError[];
  /** Response headers the failure implies, such as `Retry-After`. */
  headers?: Record<string, string>;
}

/**
 * Marks every DocqaError, whichever copy of this module made it. A plugin that bundles its own copy
 * of the plugin API, or a module loaded twice (CommonJS and ESM, as a test runner may do), has its
 * own DocqaError class; its errors must still answer their code and status, not a 500.
 */
const docqaErrorBrand = Symbol.for('@docqa/plugin-api/DocqaError');

export class DocqaError extends Error {
  readonly [docqaErrorBrand] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: DocqaErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocqaError';
    this.code = code;
    this.status = errorStatus[code];
    this.extra = options.extra ?? {};
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  /** The JSON body every failed request answers: `{detail, code, ...extra, errors?}`. */
  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { detail: this.message, code: this.code, ...this.extra };
    if (this.errors) body.errors = this.errors;
    return body;
  }

  /** `instanceof DocqaError` recognises a DocqaError of any copy of this module (see the brand). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [docqaErrorBrand]?: unknown })[docqaErrorBrand] === true
    );
  }

  static is(value: unknown, code?: ErrorCode): value is DocqaError {
    return value instanceof DocqaError && (code === undefined || value.code === code);
  }
}
