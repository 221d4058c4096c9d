import path from 'node:path';
import { z } from 'zod';

/*
 * A connector has two kinds of configuration, and they live in different places:
 *
 * 1. Plugin options (`pluginOptionsSchema`): one set per plugin *instance*, written by the operator
 *    in docqa.config.json or a preset. The kernel validates them before any plugin starts and
 *    refuses to start, naming the instance, when they are wrong. Keep them to what is the same for
 *    every source this instance serves: limits, timeouts, credentials of a shared service.
 *
 * 2. Source configuration (`feedSourceConfigSchema`): one set per connector or integration record,
 *    created at run time through the HTTP API (`{"type": "json-feed", "config": {...}}`). DocQA
 *    validates it against this schema on create and update, so `open()` only ever sees valid config.
 *
 * Both are strict objects: a misspelt key (`titelField`) is an error the user sees at once, rather
 * than a setting that is silently ignored.
 */

export const pluginOptionsSchema = z.strictObject({
  /**
   * Upper bound on the documents one sync may announce. It protects the index from a runaway feed
   * (a generator bug writing millions of lines); an operator who expects more raises it.
   */
  maxDocuments: z.number().int().positive().default(10_000),
});

export type PluginOptions = z.output<typeof pluginOptionsSchema>;

// A field name of the feed's records: short, non-empty, and not one of the fields the feed itself uses.
const recordFieldName = z
  .string()
  .min(1)
  .max(100)
  .refine(
    (name) => !['id', 'updated_at', 'deleted', 'groups'].includes(name),
    'must not be id, updated_at, deleted or groups',
  );

export const feedSourceConfigSchema = z.strictObject({
  /**
   * The JSON Lines file to read. Absolute, because a relative path would depend on the directory
   * the server happens to start in. (A production connector would also check it against an allow
   * list such as CONNECTOR_ALLOWED_PATHS, so that API users cannot read arbitrary server files.)
   */
  path: z
    .string()
    .min(1)
    .refine((value) => path.isAbsolute(value), 'must be an absolute path'),
  /** Which field of each record holds the document title. */
  titleField: recordFieldName.default('title'),
  /** Which field of each record holds the document text. */
  bodyField: recordFieldName.default('body'),
});

/** The source configuration after validation: defaults filled in. */
export type FeedSourceConfig = z.output<typeof feedSourceConfigSchema>;
