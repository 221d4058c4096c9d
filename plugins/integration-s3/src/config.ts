import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { outboundAllowListSchema } from '@docqa/plugin-api';

/*
 * Two configurations, as for every connector:
 *  - plugin options (`pluginOptionsSchema`), per plugin instance, from docqa.config.json: where the
 *    sync state lives;
 *  - source config (`s3SourceConfigSchema`), per integration record, from the HTTP API: which store,
 *    bucket and objects, and the credentials.
 * Both are strict objects so that a misspelt key is an error rather than a silently ignored setting.
 */

export const defaultStateDir = path.join(os.tmpdir(), 'docqa-s3-state');

export const pluginOptionsSchema = z.strictObject({
  /**
   * Where each source's sync state (the ETag, modification time and size of every object it
   * announced) is kept, one file per source. The default lives in the temporary directory, which
   * some systems empty on reboot: the next sync is then a full resync (see README). Point it at
   * persistent storage, such as a folder of DocQA's data directory, in production.
   */
  stateDir: z
    .string()
    .min(1)
    .refine((value) => path.isAbsolute(value), 'must be an absolute path')
    .default(defaultStateDir),
  /**
   * Host names, addresses and CIDR ranges an endpoint may be on although they are not public
   * (a MinIO on the private network, on loopback...). Empty by default: an API user who may add an
   * S3 source must not point the server at its own loopback services, the private network or a
   * cloud metadata endpoint (docs/security.md).
   */
  outboundAllow: outboundAllowListSchema,
});

export type PluginOptions = z.output<typeof pluginOptionsSchema>;

/** The extensions DocQA's extractors read; objects with other names are skipped unless `include` says otherwise. */
export const defaultIncludedSuffixes = [
  '.txt',
  '.md',
  '.html',
  '.htm',
  '.pdf',
  '.docx',
  '.csv',
  '.tsv',
  '.xlsx',
  '.png',
  '.jpg',
  '.jpeg',
  '.tif',
  '.tiff',
];

const mebibyte = 1024 * 1024;

/*
 * S3's bucket naming rules (general purpose buckets): 3–63 characters of lower-case letters, digits,
 * dots and hyphens, beginning and ending with a letter or digit, no "..", not shaped like an IP
 * address, and none of the prefixes and suffixes AWS reserves. Checked here so that a typo is
 * answered at once with the rule it breaks, not by a confusing error from the store at sync time.
 */
const bucketName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be 3–63 lower-case letters, digits, dots or hyphens, beginning and ending with a letter or digit',
  )
  .refine((name) => !name.includes('..'), 'must not contain two adjacent dots')
  .refine((name) => !/^\d+\.\d+\.\d+\.\d+$/.test(name), 'must not be formatted as an IP address')
  .refine(
    (name) => !/^(xn--|sthree-|amzn-s3-demo-)/.test(name),
    "must not begin with 'xn--', 'sthree-' or 'amzn-s3-demo-'",
  )
  .refine(
    (name) => !/(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(name),
    'must not end with a suffix S3 reserves (-s3alias, --ol-s3, .mrap, --x-s3, --table-s3)',
  );

export const s3SourceConfigSchema = z
  .strictObject({
    /** Any S3-compatible store (MinIO, Ceph, Cloudflare R2, …); absent means AWS S3 itself. */
    endpoint: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    region: z.string().min(1).default('us-east-1'),
    bucket: bucketName,
    /** Only keys beginning with this prefix are indexed; document paths are relative to it. */
    prefix: z.string().min(1).max(1024).optional(),
    access_key_id: z.string().min(1),
    /** Write-only (listed in secretFields): stored encrypted, answered as "***". */
    secret_access_key: z.string().min(1),
    /**
     * Path-style URLs (`https://host/bucket/key`) instead of virtual-hosted ones
     * (`https://bucket.host/key`). Self-hosted stores rarely have the wildcard DNS the latter needs,
     * so it defaults to true when an endpoint is set, and to false for AWS.
     */
    force_path_style: z.boolean().optional(),
    /**
     * Which objects to index: suffixes (`.pdf`, matched case-insensitively at the end of the key)
     * or globs (`reports/**\/*.pdf`, `*.md`; see README). Default: the extensions DocQA reads.
     */
    include: z.array(z.string().min(1).max(1024)).min(1).optional(),
    /** Larger objects are skipped: they would be refused by the pipeline anyway, after a long download. */
    max_object_bytes: z
      .number()
      .int()
      .positive()
      .default(100 * mebibyte),
    /**
     * Keys per ListObjectsV2 request (S3 answers at most 1,000). Smaller pages mean smaller, more numerous requests.
     */
    page_size: z.number().int().min(1).max(1000).default(1000),
  })
  // Resolved here, once, so that everything after validation sees a plain boolean.
  .transform((config) => ({ ...config, force_path_style: config.force_path_style ?? config.endpoint !== undefined }));

/** The source configuration after validation: defaults filled in. */
export type S3SourceConfig = z.output<typeof s3SourceConfigSchema>;

/** How errors and logs name the store: the endpoint, or AWS and its region. Never the credentials. */
export function describeStore(config: Pick<S3SourceConfig, 'endpoint' | 'region' | 'bucket'>): string {
  return `bucket '${config.bucket}' at ${config.endpoint ?? `AWS S3 (${config.region})`}`;
}
