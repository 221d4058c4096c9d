import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError, type ConnectorEvent, type ConnectorProvider, type Logger } from '@docqa/plugin-api';
import { describeConnectorConformance } from '@docqa/plugin-testkit';
import connectorTemplate from './index.js';
import { pluginOptionsSchema, type FeedSourceConfig } from './config.js';

/*
 * Two layers of tests, the same for every connector you write:
 *  - the shared conformance suite, which checks the promises every connector makes to DocQA;
 *  - tests of what is particular to this connector (its feed format, its errors, its options).
 * Both call init() directly, without a kernel: it is fast, and the plugin contract makes it easy.
 * loads-from-config.test.ts checks, once, that the kernel loads the plugin from configuration.
 */

/** A record of the feed as written to the file. */
interface Line {
  id: string;
  title?: string;
  body?: string;
  updated_at: string;
  deleted?: boolean;
  groups?: string[];
}

const initialFeed: Line[] = [
  {
    id: 'kb-1',
    title: 'VPN setup',
    body: 'Install the client, then sign in.',
    updated_at: '2025-03-01T10:00:00Z',
    groups: ['it'],
  },
  { id: 'kb-2', title: 'Expenses', body: 'Submit receipts within 30 days.', updated_at: '2025-03-01T11:00:00+01:00' },
  {
    id: 'kb-3',
    title: 'Holidays',
    body: 'Ask your manager two weeks ahead.',
    updated_at: '2025-03-02T09:30:00.250Z',
    groups: ['staff', 'hr'],
  },
  { id: 'kb-0', updated_at: '2025-02-01T00:00:00Z', deleted: true },
];

/** The same feed after one change: kb-4 added, kb-2 rewritten, kb-3 deleted. */
const changedFeed: Line[] = [
  initialFeed[0]!,
  { id: 'kb-2', title: 'Expenses', body: 'Submit receipts within 60 days.', updated_at: '2025-04-01T08:00:00Z' },
  { id: 'kb-3', updated_at: '2025-04-01T08:05:00Z', deleted: true },
  initialFeed[3]!,
  {
    id: 'kb-4',
    title: 'Parking',
    body: 'Badges open the garage.',
    updated_at: '2025-04-01T08:10:00Z',
    groups: ['staff'],
  },
];

function writeFeed(file: string, lines: Array<Line | string>): void {
  fs.writeFileSync(
    file,
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n',
  );
}

const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** What the kernel does at start-up, minus the kernel: validate the options, then call init(). */
async function initTemplate(
  options: unknown = {},
  shutdown = new AbortController().signal,
): Promise<ConnectorProvider<FeedSourceConfig>> {
  const provider = await connectorTemplate.init({
    options: pluginOptionsSchema.parse(options),
    instanceId: 'feeds',
    deps: { logger: silentLogger },
    logger: silentLogger,
    onStop: () => undefined,
    signal: shutdown,
  });
  return provider as ConnectorProvider<FeedSourceConfig>;
}

function temporaryDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-json-feed-'));
}

describeConnectorConformance('connector-template (json-feed)', {
  async start() {
    const directory = temporaryDirectory();
    const file = path.join(directory, 'feed.jsonl');
    writeFeed(file, initialFeed);
    return {
      provider: await initTemplate(),
      validConfig: { path: file },
      invalidConfig: { path: 'relative/feed.jsonl' },
      async mutate() {
        writeFeed(file, changedFeed);
        return { added: ['kb-4'], changed: ['kb-2'], deleted: ['kb-3'] };
      },
      async dispose() {
        fs.rmSync(directory, { recursive: true, force: true });
      },
    };
  },
});

describe('connector-template (json-feed)', function () {
  let directory: string;
  let file: string;

  beforeEach(function () {
    directory = temporaryDirectory();
    file = path.join(directory, 'feed.jsonl');
  });

  afterEach(function () {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  async function sync(
    cursor: string | null,
    config: Partial<FeedSourceConfig> = {},
    options: unknown = {},
  ): Promise<ConnectorEvent[]> {
    const provider = await initTemplate(options);
    const source = await provider.open(provider.sourceConfigSchema.parse({ path: file, ...config }), {
      sourceId: 'test',
    });
    const events: ConnectorEvent[] = [];
    for await (const event of source.sync(cursor, new AbortController().signal)) events.push(event);
    return events;
  }

  async function syncError(cursor: string | null, options: unknown = {}): Promise<unknown> {
    return sync(cursor, {}, options).then(
      () => expect.fail('the sync should have failed'),
      (error: unknown) => error,
    );
  }

  async function text(events: ConnectorEvent[], externalId: string): Promise<string> {
    const event = events.find((e) => e.type === 'upsert' && e.document.externalId === externalId);
    if (event?.type !== 'upsert') throw new Error(`no upsert of ${externalId}`);
    const chunks: Uint8Array[] = [];
    for await (const chunk of await event.document.open()) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  it('turns each record into a document with title, UTF-8 body, groups and time; tombstones into deletes', async function () {
    writeFeed(file, [
      ...initialFeed,
      { id: 'kb-5', title: 'Café', body: 'Crème brûlée ☕', updated_at: '2025-03-03T00:00:00Z' },
    ]);
    const events = await sync(null);
    expect(events.map((e) => (e.type === 'upsert' ? e.document.externalId : e.type))).to.deep.equal([
      'kb-1',
      'kb-2',
      'kb-3',
      'delete',
      'kb-5',
      'checkpoint',
    ]);
    const kb3 = events[2];
    expect(kb3?.type === 'upsert' && kb3.document).to.include({
      path: 'kb-3',
      title: 'Holidays',
      mediaType: 'text/plain',
    });
    expect(kb3?.type === 'upsert' && kb3.document.acl).to.deep.equal({ groups: ['staff', 'hr'] });
    expect(kb3?.type === 'upsert' && kb3.document.modifiedAt?.toISOString()).to.equal('2025-03-02T09:30:00.250Z');
    expect(await text(events, 'kb-5')).to.equal('Crème brûlée ☕');
    // The checkpoint is the latest updated_at seen, whatever the order or time zone of the lines.
    expect(events.at(-1)).to.deep.equal({ type: 'checkpoint', cursor: '2025-03-03T00:00:00.000Z' });
  });

  it('reads title and body from the fields the source config names', async function () {
    writeFeed(file, [
      '{"id":"a","headline":"Release notes","text":"Version 2 is out.","updated_at":"2025-01-01T00:00:00Z"}',
    ]);
    const events = await sync(null, { titleField: 'headline', bodyField: 'text' });
    expect(events[0]?.type === 'upsert' && events[0].document.title).to.equal('Release notes');
    expect(await text(events, 'a')).to.equal('Version 2 is out.');
  });

  it('a malformed line fails the sync with validation_failed naming the line number', async function () {
    writeFeed(file, [initialFeed[0]!, '', '{"id": "kb-9", "title": "broken"']);
    const notJson = await syncError(null);
    expect(DocqaError.is(notJson, 'validation_failed'), String(notJson)).to.equal(true);
    expect((notJson as DocqaError).message)
      .to.contain('line 3')
      .and.contain(file);

    writeFeed(file, [initialFeed[0]!, { id: 'kb-9', title: 'no body', updated_at: '2025-03-01T10:00:00Z' }]);
    const missingBody = await syncError(null);
    expect(DocqaError.is(missingBody, 'validation_failed'), String(missingBody)).to.equal(true);
    expect((missingBody as DocqaError).message)
      .to.contain('line 2')
      .and.contain("'body'");

    writeFeed(file, [{ id: 'kb-9', title: 't', body: 'b', updated_at: 'yesterday' }]);
    expect(((await syncError(null)) as Error).message)
      .to.contain('line 1')
      .and.contain('updated_at');
  });

  it('reports progress every 100 lines', async function () {
    const lines = Array.from({ length: 250 }, (_, i): Line => ({
      id: `doc-${i}`,
      title: `Doc ${i}`,
      body: `Body ${i}`,
      updated_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    }));
    writeFeed(file, lines);
    const events = await sync(null);
    expect(events.filter((e) => e.type === 'progress')).to.deep.equal([
      { type: 'progress', done: 100 },
      { type: 'progress', done: 200 },
    ]);
    expect(events.filter((e) => e.type === 'upsert')).to.have.length(250);
  });

  it('a cursor in the future yields nothing and keeps the cursor', async function () {
    writeFeed(file, initialFeed);
    const future = '2999-01-01T00:00:00.000Z';
    expect(await sync(future)).to.deep.equal([{ type: 'checkpoint', cursor: future }]);
  });

  it('an empty feed ends with a checkpoint from which a later sync sees every record', async function () {
    writeFeed(file, []);
    const [checkpoint] = await sync(null);
    expect(checkpoint?.type).to.equal('checkpoint');
    writeFeed(file, initialFeed);
    const events = await sync(checkpoint?.type === 'checkpoint' ? checkpoint.cursor : null);
    expect(events.filter((e) => e.type === 'upsert')).to.have.length(3);
  });

  it('rejects a cursor that is not a timestamp, and a feed file that does not exist', async function () {
    writeFeed(file, initialFeed);
    const badCursor = await syncError('page-7');
    expect(DocqaError.is(badCursor, 'validation_failed'), String(badCursor)).to.equal(true);
    fs.rmSync(file);
    const missing = await syncError(null);
    expect(DocqaError.is(missing, 'unavailable'), String(missing)).to.equal(true);
    expect((missing as Error).message).to.contain(file);
  });

  it('fails rather than truncates a sync beyond maxDocuments, naming the option and the instance', async function () {
    writeFeed(file, initialFeed);
    expect(await sync(null, {}, { maxDocuments: 3 })).to.have.length(5);
    const tooMany = await syncError(null, { maxDocuments: 2 });
    expect(DocqaError.is(tooMany, 'validation_failed'), String(tooMany)).to.equal(true);
    expect((tooMany as Error).message)
      .to.contain('maxDocuments')
      .and.contain("'feeds'");
  });

  it('stops a running sync when the server shuts down', async function () {
    writeFeed(file, initialFeed);
    const shutdown = new AbortController();
    const provider = await initTemplate({}, shutdown.signal);
    const source = await provider.open(provider.sourceConfigSchema.parse({ path: file }), { sourceId: 'test' });
    const events = source.sync(null, new AbortController().signal)[Symbol.asyncIterator]();
    expect((await events.next()).value).to.have.property('type', 'upsert');
    shutdown.abort(new Error('shutting down'));
    const next = await events.next().then(
      () => null,
      (error: unknown) => error,
    );
    expect((next as Error | null)?.message).to.equal('shutting down');
  });

  it('validates source config and plugin options strictly, filling in defaults', async function () {
    const { sourceConfigSchema } = await initTemplate();
    expect(sourceConfigSchema.parse({ path: file })).to.deep.equal({
      path: file,
      titleField: 'title',
      bodyField: 'body',
    });
    expect(sourceConfigSchema.safeParse({ path: 'feed.jsonl' }).success, 'relative path').to.equal(false);
    expect(sourceConfigSchema.safeParse({ path: file, titelField: 'x' }).success, 'misspelt key').to.equal(false);
    expect(sourceConfigSchema.safeParse({ path: file, bodyField: 'id' }).success, 'reserved field').to.equal(false);
    const options = connectorTemplate.configSchema;
    expect(options.parse({})).to.deep.equal({ maxDocuments: 10_000 });
    expect(options.safeParse({ maxDocuments: 0 }).success, 'maxDocuments 0').to.equal(false);
    expect(options.safeParse({ maxDocument: 5 }).success, 'misspelt option').to.equal(false);
  });
});
