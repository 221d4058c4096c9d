import path from 'node:path';
import { expect } from 'chai';
import integrationS3 from './index.js';
import { defaultStateDir, s3SourceConfigSchema } from './config.js';
import { globToRegExp, objectFilter, relativePath } from './object-filter.js';
import { contentHashOf } from './object-document.js';
import { stateFilePath } from './sync-state.js';

/* The parts that need no store: configuration, filters, names. */

const base = { bucket: 'docs', access_key_id: 'AKIA', secret_access_key: 's3cret' };

describe('integration-s3 configuration', function () {
  it('fills in defaults; force_path_style follows the presence of an endpoint unless set', function () {
    expect(s3SourceConfigSchema.parse(base)).to.deep.equal({
      ...base,
      region: 'us-east-1',
      max_object_bytes: 100 * 1024 * 1024,
      page_size: 1000,
      force_path_style: false,
    });
    expect(s3SourceConfigSchema.parse({ ...base, endpoint: 'http://127.0.0.1:9000' }).force_path_style).to.equal(true);
    expect(
      s3SourceConfigSchema.parse({ ...base, endpoint: 'https://r2.example', force_path_style: false }).force_path_style,
    ).to.equal(false);
  });

  it('refuses unknown keys, non-http endpoints, bucket names S3 forbids and bad limits', function () {
    const refused = (config: Record<string, unknown>) =>
      s3SourceConfigSchema.safeParse({ ...base, ...config }).success === false;
    expect(refused({ secret_acces_key: 'x' }), 'misspelt key').to.equal(true);
    expect(refused({ endpoint: 'ftp://files.example' }), 'ftp endpoint').to.equal(true);
    expect(refused({ endpoint: 'not a url' }), 'not a URL').to.equal(true);
    for (const name of [
      'ab',
      'Docs',
      'my_bucket',
      '-docs',
      'docs-',
      'my..docs',
      '192.168.1.1',
      'xn--docs',
      'docs-s3alias',
      'a'.repeat(64),
    ]) {
      expect(refused({ bucket: name }), `bucket '${name}'`).to.equal(true);
    }
    for (const name of ['abc', 'my.docs-2025', 'a'.repeat(63)])
      expect(refused({ bucket: name }), `bucket '${name}'`).to.equal(false);
    expect(refused({ page_size: 0 }), 'page_size 0').to.equal(true);
    expect(refused({ page_size: 1001 }), 'page_size 1001').to.equal(true);
    expect(refused({ max_object_bytes: 0 }), 'max_object_bytes 0').to.equal(true);
    expect(refused({ include: [] }), 'empty include').to.equal(true);
    expect(refused({ secret_access_key: '' }), 'empty secret').to.equal(true);
  });

  it('declares the plugin, the source type and the secret field', async function () {
    expect(integrationS3).to.include({ id: 'integration-s3', kind: 'connector' });
    expect(integrationS3.configSchema.parse({})).to.deep.equal({ stateDir: defaultStateDir, outboundAllow: [] });
    const allowing = (outboundAllow: string[]) => integrationS3.configSchema.safeParse({ outboundAllow }).success;
    expect(allowing(['minio.internal', '10.0.0.0/8'])).to.equal(true);
    expect(allowing(['http://minio.internal:9000'])).to.equal(false);
    expect(integrationS3.configSchema.safeParse({ stateDir: 'relative' }).success).to.equal(false);
    expect(integrationS3.configSchema.safeParse({ statedir: '/tmp' }).success).to.equal(false);
  });
});

describe('integration-s3 object filter', function () {
  it('turns globs into expressions: ** across folders, * and ? within one, {a,b} alternatives', function () {
    expect(globToRegExp('reports/**/*.pdf').test('reports/2025/q1/a.pdf')).to.equal(true);
    expect(globToRegExp('reports/**/*.pdf').test('reports/a.pdf')).to.equal(true);
    expect(globToRegExp('reports/*.pdf').test('reports/2025/a.pdf')).to.equal(false);
    expect(globToRegExp('doc-?.md').test('doc-1.md')).to.equal(true);
    expect(globToRegExp('*.{md,txt}').test('a.txt')).to.equal(true);
    expect(globToRegExp('a+b (1).md').test('a+b (1).md')).to.equal(true);
    expect(globToRegExp('{unclosed').test('{unclosed')).to.equal(true);
  });

  it('matches suffixes without case, globs without "/" on the last segment, and paths relative to the prefix', function () {
    const filter = objectFilter({ prefix: 'kb/', include: ['.PDF', '*.md', 'guides/**'], max_object_bytes: 100 });
    expect(filter.pathOf('kb/scan.pdf', 10)).to.equal('scan.pdf');
    expect(filter.pathOf('kb/deep/notes.md', 10)).to.equal('deep/notes.md');
    expect(filter.pathOf('kb/guides/setup.bin', 10)).to.equal('guides/setup.bin');
    expect(filter.pathOf('kb/other.bin', 10)).to.equal(null);
    expect(filter.pathOf('kb/too-big.md', 101)).to.equal(null);
    expect(filter.pathOf('kb/folder/', 0)).to.equal(null);
    expect(filter.pathOf('elsewhere/a.md', 10)).to.equal(null);
    expect(objectFilter({ max_object_bytes: 100 }).pathOf('photo.JPG', 1)).to.equal('photo.JPG');
    expect(relativePath('kb/a.md', 'kb')).to.equal('a.md');
    expect(relativePath('kb', 'kb')).to.equal('kb');
  });

  it('takes an ETag as content hash only when it is a plain MD5, not a multipart ETag', function () {
    expect(contentHashOf('5D41402ABC4B2A76B9719D911017C592')).to.equal('5d41402abc4b2a76b9719d911017c592');
    expect(contentHashOf('5d41402abc4b2a76b9719d911017c592-3')).to.equal(undefined);
  });

  it('names state files by source id, hashing ids that are not plain names', function () {
    expect(stateFilePath('/state', '7f1c-uuid_1')).to.equal(path.join('/state', '7f1c-uuid_1.s3-state.jsonl'));
    expect(path.basename(stateFilePath('/state', '../../etc/passwd'))).to.match(/^[0-9a-f]{64}\.s3-state\.jsonl$/);
  });
});
