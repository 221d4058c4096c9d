import fs from 'node:fs';
import net from 'node:net';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { s3SourceConfigSchema } from './config.js';
import { describeS3Failure } from './s3-client.js';
import {
  collect,
  cursorOf,
  initIntegration,
  openSource,
  rejection,
  startSilentServer,
  startTestStore,
  temporaryDirectory,
  upsertedIds,
  type TestStore,
} from './s3rver-fixture.test.js';

/*
 * What a user sees when something is wrong: refused credentials, a missing bucket, an unreachable
 * store, a cancelled job. Every message names the store and the bucket, and never the secret.
 */

const bucket = 'docs';
const secret = 'very-secret-value-0123456789';

describe('integration-s3 failures', function () {
  let store: TestStore;
  let stateDir: string;

  beforeEach(async function () {
    store = await startTestStore([bucket]);
    stateDir = temporaryDirectory();
    await store.put(bucket, 'a.txt', 'alpha');
    await store.put(bucket, 'b.txt', 'bravo');
  });

  afterEach(async function () {
    await store.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function syncError(config: Record<string, unknown>, signal?: AbortSignal): Promise<Error> {
    const source = await openSource(await initIntegration(stateDir), config);
    try {
      return await rejection(collect(source, null, signal));
    } finally {
      await source.close?.();
    }
  }

  it('an endpoint on loopback, however written, is refused unless outboundAllow allows it', async function () {
    const port = new URL(store.endpoint).port;
    const provider = await initIntegration(stateDir, undefined, []);
    for (const host of ['127.0.0.1', 'localhost', '2130706433', '127.1']) {
      const source = await openSource(provider, { ...store.sourceConfig(bucket), endpoint: `http://${host}:${port}` });
      try {
        const error = await rejection(collect(source, null));
        expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
        expect(error.message, host).to.match(/^Refused to connect to \S+: \S+ is a loopback address\./);
        expect(error.message, host).to.contain('the outboundAllow option of integration-s3');
      } finally {
        await source.close?.();
      }
    }
  });

  it('refuses a private or metadata endpoint by default', async function () {
    const provider = await initIntegration(stateDir, undefined, []);
    for (const endpoint of ['http://10.1.2.3:9000', 'http://169.254.169.254']) {
      const source = await openSource(provider, { ...store.sourceConfig(bucket), endpoint });
      try {
        expect((await rejection(collect(source, null))).message, endpoint).to.match(/is a (private|link-local)/);
      } finally {
        await source.close?.();
      }
    }
  });

  it('refused credentials: unavailable, naming endpoint and bucket but not the secret', async function () {
    const error = await syncError(
      store.sourceConfig(bucket, { access_key_id: 'NOT-A-KEY', secret_access_key: secret }),
    );
    expect(DocqaError.is(error, 'unavailable'), String(error)).to.equal(true);
    expect(error.message)
      .to.contain('the credentials were refused')
      .and.contain(store.endpoint)
      .and.contain(`'${bucket}'`);
    expect(error.message).to.not.contain(secret);
    expect(JSON.stringify((error as DocqaError).toBody())).to.not.contain(secret);
  });

  it('a missing bucket: validation_failed "bucket X does not exist"', async function () {
    const error = await syncError(store.sourceConfig('no-such-bucket'));
    expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
    expect(error.message).to.contain("bucket 'no-such-bucket' does not exist").and.contain(store.endpoint);
    expect((error as DocqaError).errors).to.deep.equal([
      { field: 'bucket', message: 'bucket no-such-bucket does not exist' },
    ]);
  });

  it('a signature mismatch is refused credentials too, and a store echoing the secret is redacted', function () {
    const config = s3SourceConfigSchema.parse(store.sourceConfig(bucket, { secret_access_key: secret }));
    const mismatch = Object.assign(new Error('The request signature we calculated does not match'), {
      name: 'SignatureDoesNotMatch',
      Code: 'SignatureDoesNotMatch',
    });
    const refused = describeS3Failure(mismatch, config, 'listing objects');
    expect(refused.code).to.equal('unavailable');
    expect(refused.message).to.contain('the credentials were refused');
    const echo = Object.assign(new Error(`bad request for key ${secret}`), { name: 'WeirdStoreError' });
    expect(describeS3Failure(echo, config, 'listing objects').message)
      .to.contain('***')
      .and.not.contain(secret);
  });

  it('an unreachable store: unavailable, naming the endpoint', async function () {
    this.timeout(20_000);
    // A port that was free a moment ago: connections are refused.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    const error = await syncError({ ...store.sourceConfig(bucket), endpoint });
    expect(DocqaError.is(error, 'unavailable'), String(error)).to.equal(true);
    expect(error.message).to.contain(endpoint).and.contain(`'${bucket}'`).and.contain('is unreachable (ECONNREFUSED)');
  });

  it('aborting while a listing request is in flight stops at once with the signal reason', async function () {
    const silent = await startSilentServer();
    try {
      const controller = new AbortController();
      const reason = new Error('job cancelled');
      const started = Date.now();
      setTimeout(() => controller.abort(reason), 200);
      const error = await syncError({ ...store.sourceConfig(bucket), endpoint: silent.endpoint }, controller.signal);
      expect(error).to.equal(reason);
      expect(Date.now() - started).to.be.below(2_000);
      // No state was written for a sync that never finished.
      expect(fs.readdirSync(stateDir).filter((name) => !name.endsWith('.tmp'))).to.deep.equal([]);
      expect(fs.readdirSync(stateDir).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
    } finally {
      await silent.stop();
    }
  });

  it('aborting between pages leaves the previous state and cursor valid', async function () {
    const provider = await initIntegration(stateDir);
    const config = store.sourceConfig(bucket, { page_size: 1 });
    const source = await openSource(provider, config);
    const first = await collect(source, null);
    await store.put(bucket, 'c.txt', 'charlie');
    // A full resync, cancelled after the first page's upsert: the second page is never requested.
    const controller = new AbortController();
    const events = source.sync(null, controller.signal)[Symbol.asyncIterator]();
    const next = await events.next();
    expect(next.value).to.have.nested.property('document.externalId', 'a.txt');
    controller.abort(new Error('stop'));
    expect((await rejection(events.next())).message).to.equal('stop');
    // The interrupted sync changed nothing: from the old cursor, only the new object is announced.
    expect(upsertedIds(await collect(source, cursorOf(first)))).to.deep.equal(['c.txt']);
    expect(fs.readdirSync(stateDir).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
    await source.close?.();
  });

  it("a document's bytes are not read once its signal is aborted, or the plugin is shutting down", async function () {
    const shutdown = new AbortController();
    const source = await openSource(await initIntegration(stateDir, shutdown.signal), store.sourceConfig(bucket));
    const events = await collect(source, null);
    const upsert = events.find((e) => e.type === 'upsert');
    if (upsert?.type !== 'upsert') throw new Error('no upsert');
    const cancelled = new AbortController();
    cancelled.abort(new Error('reader cancelled'));
    expect((await rejection(upsert.document.open(cancelled.signal))).message).to.equal('reader cancelled');
    shutdown.abort(new Error('shutting down'));
    expect((await rejection(upsert.document.open())).message).to.equal('shutting down');
    await source.close?.();
  });

  it('reading an object deleted since the listing: not_found naming the key', async function () {
    const source = await openSource(await initIntegration(stateDir), store.sourceConfig(bucket));
    const upsert = (await collect(source, null)).find((e) => e.type === 'upsert' && e.document.externalId === 'a.txt');
    if (upsert?.type !== 'upsert') throw new Error('no upsert of a.txt');
    await store.remove(bucket, 'a.txt');
    const error = await rejection(upsert.document.open());
    expect(DocqaError.is(error, 'not_found'), String(error)).to.equal(true);
    expect(error.message).to.contain("'a.txt'");
    await source.close?.();
  });
});
