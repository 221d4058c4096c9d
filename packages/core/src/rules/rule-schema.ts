import { z } from 'zod';
import { DocqaError, type FieldError } from '@docqa/plugin-api';
import { translatePythonRegex } from './python-regex.js';

/**
 * The writable fields of a metadata rule (spec 2.4); an unknown member (a
 * misspelt field, `__proto__`) is refused, not dropped unseen.
 */
export const metadataRuleSchema = z.strictObject({
  field_name: z
    .string()
    .regex(
      /^[a-z][a-z0-9_]{0,63}$/,
      'Must start with a lowercase letter and contain only a-z, 0-9 and _ (at most 64 characters).',
    ),
  pattern: z.string().min(1, 'Must not be empty.'),
  query_pattern: z.string().min(1, 'Must not be empty; omit it or send null to reuse pattern.').nullable().optional(),
  scope: z.enum(['full', 'header', 'filename']),
  level: z.enum(['document', 'chunk']),
  chunk_boundary: z.boolean().default(false),
  priority: z.number().int('Must be an integer.').min(-1000).max(1000).default(0),
});

/** What a client sends. */
export type MetadataRuleInput = z.input<typeof metadataRuleSchema>;
/** The validated fields, defaults applied. */
export type MetadataRuleFields = z.output<typeof metadataRuleSchema>;
/** A stored rule, as the rule engine consumes it. */
export interface MetadataRule extends MetadataRuleFields {
  id: string;
}

/**
 * Every problem of a rule as `{field, message}` (empty when valid): schema problems first, then the
 * regular expressions — Python syntax JavaScript can express, compiling, exactly one capture group.
 * The HTTP layer answers 422 with this list.
 */
export function validateRule(input: unknown): FieldError[] {
  const parsed = metadataRuleSchema.safeParse(input);
  const problems: FieldError[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || 'body',
        message: issue.message,
      }));
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  for (const field of ['pattern', 'query_pattern'] as const) {
    const value = record[field];
    if (typeof value !== 'string' || value === '' || problems.some((problem) => problem.field === field)) continue;
    const message = regexProblem(value);
    if (message) problems.push({ field, message });
  }
  return problems;
}

/** Validates and applies defaults, or throws a 422 `validation_failed` DocqaError listing every problem. */
export function parseRule(input: unknown): MetadataRuleFields {
  const problems = validateRule(input);
  if (problems.length > 0) {
    throw new DocqaError('validation_failed', 'The metadata rule is invalid.', { errors: problems });
  }
  return metadataRuleSchema.parse(input);
}

function regexProblem(pattern: string): string | undefined {
  try {
    const { captureGroups } = translatePythonRegex(pattern);
    if (captureGroups !== 1) return `Must have exactly one capture group; found ${captureGroups}.`;
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
