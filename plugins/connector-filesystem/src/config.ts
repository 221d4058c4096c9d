import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/*
 * Two configurations, as for every connector:
 *  - plugin options, one set per plugin instance, written by the operator (the standard preset
 *    passes CONNECTOR_ALLOWED_PATHS and a state directory under DOCQA_DATA_DIR);
 *  - source config, one set per connector record, sent by API users. API users are less trusted
 *    than the operator, which is why the allowed roots live in the options and not in the source.
 */

const absolutePath = z
  .string()
  .min(1)
  .refine((value) => path.isAbsolute(value), 'must be an absolute path');

/** True when a path names a parent directory anywhere (`/docs/../etc`): refused, never normalised away. */
export function hasParentSegment(value: string): boolean {
  return value.split(/[\\/]/).includes('..');
}

export const pluginOptionsSchema = z.strictObject({
  /**
   * The only directories sources may read, with everything below them. Required: a filesystem
   * connector without an allow list would let any admin index any file the server can read.
   */
  allowedPaths: z.array(absolutePath).min(1, 'name at least one directory (CONNECTOR_ALLOWED_PATHS)'),
  /**
   * Fixed to false and present only so that configuration says it out loud: symbolic links are
   * never followed, because a link is the simplest way to point a source outside its allowed root.
   */
  followSymlinks: z.literal(false).default(false),
  /** Files larger than this are skipped (and logged); unset means no limit. */
  maxFileBytes: z.number().int().positive().optional(),
  /**
   * Where the per-source sync state lives (see state-file.ts). The standard preset passes
   * `<DOCQA_DATA_DIR>/connectors/filesystem`; the default suits tests and throwaway runs only,
   * since a temporary directory may be cleaned (which costs a full resync, nothing worse).
   */
  stateDir: absolutePath.default(path.join(os.tmpdir(), 'docqa-filesystem-state')),
});

export type PluginOptions = z.output<typeof pluginOptionsSchema>;

/** Hidden files and hidden folders with everything inside them (`.git/`, `.DS_Store`, `.env`). */
export const defaultExcludeGlobs = ['**/.*', '**/.*/**'];

const globList = z.array(z.string().min(1).max(1000)).max(1000);

export const directorySourceConfigSchema = z.strictObject({
  /**
   * The directory to index. Absolute, without `..`; whether it lies inside an allowed root is
   * checked by `open()` on the real path (symlinks resolved), which a schema cannot do.
   */
  path: absolutePath.refine((value) => !hasParentSegment(value), 'must not contain ".." segments'),
  /** Globs a file's path relative to `path` (POSIX separators) must match to be indexed. */
  include: globList.default(['**/*']),
  /** Globs that exclude files, and whole directories when they match the directory's path. */
  exclude: globList.default(defaultExcludeGlobs),
});

export type DirectorySourceConfig = z.output<typeof directorySourceConfigSchema>;
