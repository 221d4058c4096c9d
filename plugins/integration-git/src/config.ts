import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { outboundAllowListSchema } from '@docqa/plugin-api';

/*
 * Plugin options (per instance, docqa.config.json): where working clones live.
 * Source config (per integration record, HTTP API): which repository, branch and files.
 */

export const pluginOptionsSchema = z.strictObject({
  /**
   * Parent directory of the working clones, one per source (`<stateDir>/<sourceId>`). A clone keeps
   * the commit of the last sync, which is what lets the next sync diff against it. Losing it costs
   * one full re-sync (see the README), nothing more.
   */
  stateDir: z
    .string()
    .min(1)
    .refine((value) => path.isAbsolute(value), 'must be an absolute path')
    .default(path.join(os.tmpdir(), 'docqa-git-state')),
  /**
   * Host names, addresses and CIDR ranges a repository may be on although they are not public (a
   * Gitea on the private network...). Empty by default: an API user who may add a git source must
   * not point the server at its own loopback services, the private network or a cloud metadata
   * endpoint (docs/security.md).
   */
  outboundAllow: outboundAllowListSchema,
});

export type PluginOptions = z.output<typeof pluginOptionsSchema>;

export const defaultIncludeGlobs = [
  '**/*.md',
  '**/*.txt',
  '**/*.html',
  '**/*.pdf',
  '**/*.docx',
  '**/*.csv',
  '**/*.xlsx',
];

const glob = z.string().min(1).max(500);

export const gitSourceConfigSchema = z.strictObject({
  /** The repository's smart-HTTP URL, such as https://git.example.com/team/handbook.git. */
  url: z
    .url({ protocol: /^https?$/ })
    // Credentials in the URL would be stored in clear and shown in logs; username/token are the place.
    .refine(
      (value) => new URL(value).username === '' && new URL(value).password === '',
      'must not contain a user name or password (use username and token)',
    ),
  branch: z
    .string()
    .min(1)
    .max(250)
    .regex(/^(?!-)(?!.*\.\.)[A-Za-z0-9._\/-]+$/, 'must be a branch name such as main or release/2.x')
    .default('main'),
  /** Globs of the files to index, matched against the path inside the repository. */
  include: z.array(glob).min(1).default(defaultIncludeGlobs),
  exclude: z.array(glob).optional(),
  /** User name for HTTP Basic authentication; defaults to x-access-token when only a token is set. */
  username: z.string().min(1).max(200).optional(),
  /** Password or access token. Write-only (secretFields); never logged nor put in error messages. */
  token: z.string().min(1).max(4096).optional(),
});

export type GitSourceConfig = z.output<typeof gitSourceConfigSchema>;
