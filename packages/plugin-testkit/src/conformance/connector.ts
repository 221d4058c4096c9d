import { expect } from 'chai';
import {
  DocqaError,
  type ConnectorDocument,
  type ConnectorEvent,
  type ConnectorProvider,
  type ConnectorSource,
  type ConnectorStorage,
} from '@docqa/plugin-api';

/**
 * What a connector's test hands the conformance suite. `start()` runs before each test and
 * `dispose()` after it, so every test sees a fresh source in its initial state.
 */
export interface ConnectorConformanceSetup {
  start(): Promise<{
    provider: ConnectorProvider;
    /** Source config the provider accepts; its source must hold at least one document. */
    validConfig: unknown;
    /** Source config the provider's sourceConfigSchema must reject. */
    invalidConfig: unknown;
    /** Applies one change at the source: adds one document, changes one, deletes one (when deletions). */
    mutate?(): Promise<{ added: string[]; changed: string[]; deleted: string[] }>;
    /**
     * For providers with capabilities.storage: two fresh relative paths the source's syncs would
     * announce, the second in a directory that does not exist yet. Default: `conformance/written.txt`
     * and `conformance/moved/renamed.txt`.
     */
    storagePaths?: { write: string; moveTo: string };
    dispose(): Promise<void>;
  }>;
}

type Started = Awaited<ReturnType<ConnectorConformanceSetup['start']>>;

/** The id the suite passes as ConnectorContext.sourceId. */
const conformanceSourceId = 'conformance-source';

/**
 * Declares the shared tests every connector and integration plugin passes: the declared shape,
 * config validation, a full sync, incremental sync, changes, deletions, cancellation and ACLs.
 * Tests of capabilities the provider does not declare are skipped, not passed silently.
 */
export function describeConnectorConformance(name: string, setup: ConnectorConformanceSetup): void {
  describe(`${name}: connector conformance`, function () {
    let started: Started | null = null;

    beforeEach(async function () {
      started = await setup.start();
    });

    afterEach(async function () {
      await started?.dispose();
      started = null;
    });

    const current = (): Started => {
      if (!started) throw new Error('setup.start() did not run');
      return started;
    };

    it('declares type, displayName, sourceKind, secretFields and boolean capabilities', function () {
      const { provider } = current();
      expect(provider.type, 'type').to.be.a('string').and.not.equal('');
      expect(provider.displayName, 'displayName').to.be.a('string').and.not.equal('');
      expect(provider.sourceKind, 'sourceKind').to.be.oneOf(['connector', 'integration']);
      expect(provider.secretFields, 'secretFields').to.be.an('array');
      for (const field of provider.secretFields)
        expect(field, 'secretFields entry').to.be.a('string').and.not.equal('');
      expect(provider.capabilities, 'capabilities').to.be.an('object');
      for (const capability of ['incremental', 'deletions', 'acls'] as const) {
        expect(provider.capabilities[capability], `capabilities.${capability}`).to.be.a('boolean');
      }
      if (provider.capabilities.storage !== undefined)
        expect(provider.capabilities.storage, 'capabilities.storage').to.be.a('boolean');
      expect(typeof provider.openStorage, 'openStorage is present exactly when capabilities.storage').to.equal(
        provider.capabilities.storage ? 'function' : 'undefined',
      );
      expect(provider.sourceConfigSchema.safeParse, 'sourceConfigSchema is a zod schema').to.be.a('function');
    });

    it('sourceConfigSchema accepts the valid config and rejects the invalid one', function () {
      const { provider, validConfig, invalidConfig } = current();
      const valid = provider.sourceConfigSchema.safeParse(validConfig);
      expect(valid.success, `valid config rejected: ${valid.error?.message ?? ''}`).to.equal(true);
      expect(provider.sourceConfigSchema.safeParse(invalidConfig).success, 'invalid config accepted').to.equal(false);
    });

    it('a full sync yields documents whose bytes can be read, and ends with a checkpoint', async function () {
      const events = await syncAll(current(), null);
      const upserts = upsertedDocuments(events);
      expect(upserts, 'upserts of a full sync').to.not.be.empty;
      const ids = upserts.map((document) => document.externalId);
      expect(new Set(ids).size, `externalIds are unique (${ids.join(', ')})`).to.equal(ids.length);
      for (const document of upserts) await expectReadableDocument(document);
      for (const event of events.filter((e) => e.type === 'progress')) {
        expect(event.done, 'progress.done').to.be.a('number').and.at.least(0);
      }
      expectEndsWithCheckpoint(events);
    });

    it('an incremental sync from the last checkpoint yields no upserts when nothing changed', async function () {
      const state = current();
      if (!state.provider.capabilities.incremental) this.skip();
      const first = await syncAll(state, null);
      const second = await syncAll(state, checkpointOf(first));
      expect(
        upsertedDocuments(second).map((d) => d.externalId),
        'upserts of an unchanged source',
      ).to.be.empty;
      expectEndsWithCheckpoint(second);
    });

    it('after a change at the source, the next sync yields exactly what changed', async function () {
      const state = current();
      const mutate = state.mutate;
      if (!mutate) this.skip();
      const { provider } = state;
      const before = await syncAll(state, null);
      const unchanged = new Set(upsertedDocuments(before).map((d) => d.externalId));
      const change = await mutate();
      expect(change.added, 'mutate() added a document').to.not.be.empty;
      expect(change.changed, 'mutate() changed a document').to.not.be.empty;
      if (provider.capabilities.deletions) expect(change.deleted, 'mutate() deleted a document').to.not.be.empty;
      for (const id of [...change.added, ...change.changed, ...change.deleted]) unchanged.delete(id);

      const after = await syncAll(state, checkpointOf(before));
      const upserted = upsertedDocuments(after).map((d) => d.externalId);
      expect(upserted, 'upserts after the change').to.include.members([...change.added, ...change.changed]);
      for (const document of upsertedDocuments(after)) await expectReadableDocument(document);
      if (provider.capabilities.deletions) {
        const deleted = after.flatMap((e) => (e.type === 'delete' ? [e.externalId] : []));
        expect(deleted, 'deletes after the change').to.include.members(change.deleted);
        for (const id of change.deleted)
          expect(lastEventAbout(after, id)?.type, `the last event about deleted ${id}`).to.equal('delete');
      }
      if (provider.capabilities.incremental) {
        expect(
          upserted.filter((id) => unchanged.has(id)),
          'unchanged documents upserted by an incremental sync',
        ).to.be.empty;
      }
      expectEndsWithCheckpoint(after);
    });

    it('a sync with an already aborted signal throws before it yields any upsert', async function () {
      const reason = new Error('conformance: cancelled before the sync started');
      const controller = new AbortController();
      controller.abort(reason);
      const seen: ConnectorEvent[] = [];
      const thrown = await withSource(current(), async (source) => {
        try {
          for await (const event of source.sync(null, controller.signal)) seen.push(event);
        } catch (error) {
          return error;
        }
        return null;
      });
      expect(thrown, 'sync() with an aborted signal completed instead of throwing').to.not.equal(null);
      expectAbortError(thrown, reason);
      expect(
        seen.filter((e) => e.type === 'upsert' || e.type === 'checkpoint'),
        'events yielded after the abort',
      ).to.be.empty;
    });

    it('aborting during a sync stops it with the signal reason and without a checkpoint', async function () {
      const reason = new Error('conformance: cancelled mid-sync');
      const controller = new AbortController();
      const afterAbort: ConnectorEvent[] = [];
      const thrown = await withSource(current(), async (source) => {
        try {
          for await (const event of source.sync(null, controller.signal)) {
            if (controller.signal.aborted) afterAbort.push(event);
            else if (event.type === 'upsert') controller.abort(reason);
          }
        } catch (error) {
          return error;
        }
        return null;
      });
      expect(thrown, 'sync() kept going to the end after its signal was aborted').to.not.equal(null);
      expectAbortError(thrown, reason);
      expect(
        afterAbort.filter((e) => e.type === 'checkpoint'),
        'checkpoint after the abort',
      ).to.be.empty;
    });

    it('access-control lists are string arrays, present exactly when capabilities.acls', async function () {
      const { provider } = current();
      const documents = upsertedDocuments(await syncAll(current(), null));
      const withAcl = documents.filter((document) => document.acl !== undefined);
      if (!provider.capabilities.acls) {
        expect(
          withAcl.map((d) => d.externalId),
          'documents with an acl although capabilities.acls is false',
        ).to.be.empty;
        return;
      }
      expect(withAcl, 'capabilities.acls is true: at least one document of the source should carry an acl').to.not.be
        .empty;
      for (const document of withAcl) {
        expect(document.acl?.groups, `acl.groups of ${document.externalId}`).to.be.an('array');
        for (const group of document.acl?.groups ?? [])
          expect(group, `a group of ${document.externalId}`).to.be.a('string');
      }
    });

    describeStorageConformance(current);
  });
}

const storageText = 'Written by the connector conformance suite through the storage capability.';

/** Tests of capabilities.storage: skipped for providers that do not declare it. */
function describeStorageConformance(current: () => Started): void {
  const storageOf = async (state: Started): Promise<ConnectorStorage> => {
    const parsed = state.provider.sourceConfigSchema.parse(state.validConfig);
    return state.provider.openStorage!(parsed, { sourceId: conformanceSourceId });
  };
  const pathsOf = (state: Started) =>
    state.storagePaths ?? { write: 'conformance/written.txt', moveTo: 'conformance/moved/renamed.txt' };
  const announced = async (state: Started) =>
    new Map(upsertedDocuments(await syncAll(state, null)).map((document) => [document.externalId, document]));
  const usable = function (this: Mocha.Context): Started {
    const state = current();
    if (!state.provider.capabilities.storage) this.skip();
    return state;
  };

  it('storage: a written file is announced by the next sync with its bytes, and is never replaced', async function () {
    const state = usable.call(this);
    const storage = await storageOf(state);
    const { write } = pathsOf(state);
    await storage.checkWritable(write);
    const stored = await storage.write(write, bytesOf(storageText));
    expect(stored.path, 'the stored path').to.equal(write);
    expect(stored.size, 'the stored size').to.equal(Buffer.byteLength(storageText));
    const document = (await announced(state)).get(stored.externalId);
    expect(document, `a full sync announces ${stored.externalId}`).to.not.equal(undefined);
    expect(document!.path, 'the announced path').to.equal(stored.path);
    expect(await textOf(document!), 'the announced bytes').to.equal(storageText);

    await expectCode(storage.checkWritable(write), 'conflict', 'checkWritable of an existing file');
    await expectCode(storage.write(write, bytesOf('other bytes')), 'conflict', 'a second write to the same path');
    expect(
      await textOf((await announced(state)).get(stored.externalId)!),
      'bytes after the refused second write',
    ).to.equal(storageText);
  });

  it(
    'storage: a moved file is announced under its new id ' + 'only; a missing source or an existing target is refused',
    async function () {
      const state = usable.call(this);
      const storage = await storageOf(state);
      const { write, moveTo } = pathsOf(state);
      const written = await storage.write(write, bytesOf(storageText));
      const moved = await storage.move(written.path, moveTo);
      expect(moved.path, 'the moved path').to.equal(moveTo);
      const after = await announced(state);
      expect(after.has(written.externalId), `${written.externalId} is still announced after the move`).to.equal(false);
      expect(await textOf(after.get(moved.externalId)!), 'the moved bytes').to.equal(storageText);

      await expectCode(storage.move(written.path, `${moveTo}.again`), 'not_found', 'moving a file that is not there');
      const other = await storage.write(write, bytesOf('another file'));
      await expectCode(storage.move(other.path, moveTo), 'conflict', 'moving onto an existing file');
      expect(
        await textOf((await announced(state)).get(moved.externalId)!),
        'the target after the refused move',
      ).to.equal(storageText);
    },
  );

  it('storage: a deleted file is no longer announced; deleting it again answers false', async function () {
    const state = usable.call(this);
    const storage = await storageOf(state);
    const written = await storage.write(pathsOf(state).write, bytesOf(storageText));
    expect(await storage.delete(written.path), 'the first delete').to.equal(true);
    expect((await announced(state)).has(written.externalId), 'announced after its delete').to.equal(false);
    expect(await storage.delete(written.path), 'deleting a file that is gone').to.equal(false);
  });

  it('storage: paths that are absolute or leave the source are refused, and nothing is written', async function () {
    const state = usable.call(this);
    const storage = await storageOf(state);
    const before = [...(await announced(state)).keys()].sort();
    for (const refused of [
      '../escape.txt',
      'conformance/../../escape.txt',
      '/tmp/escape.txt',
      './escape.txt',
      'conformance//escape.txt',
      '',
    ]) {
      await expectCode(
        storage.checkWritable(refused),
        'validation_failed',
        `checkWritable(${JSON.stringify(refused)})`,
      );
      await expectCode(
        storage.write(refused, bytesOf(storageText)),
        'validation_failed',
        `write(${JSON.stringify(refused)})`,
      );
    }
    const written = await storage.write(pathsOf(state).write, bytesOf(storageText));
    await expectCode(storage.move(written.path, '../escape.txt'), 'validation_failed', 'moving out of the source');
    await storage.delete(written.path);
    expect([...(await announced(state)).keys()].sort(), 'documents after the refused writes').to.deep.equal(before);
  });

  it('storage: a write whose content fails or whose signal aborts leaves nothing behind', async function () {
    const state = usable.call(this);
    const storage = await storageOf(state);
    const { write } = pathsOf(state);
    const failure = new Error('conformance: the upload broke off');
    async function* brokenContent(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('the first half of a file');
      throw failure;
    }
    const thrown = await storage.write(write, brokenContent()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown, 'the error of the content stream').to.equal(failure);
    const controller = new AbortController();
    controller.abort(new Error('conformance: cancelled'));
    expect(
      await storage.write(write, bytesOf(storageText), { signal: controller.signal }).then(
        () => null,
        (error: unknown) => error,
      ),
      'an aborted write',
    ).to.not.equal(null);
    const ids = [...(await announced(state)).values()].filter(
      (document) => document.path === write || document.path.includes('docqa-write'),
    );
    expect(
      ids.map((document) => document.path),
      'documents left by the failed writes',
    ).to.be.empty;
    // Nothing at the path either: the same write now succeeds.
    expect((await storage.write(write, bytesOf(storageText))).path).to.equal(write);
  });
}

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

async function textOf(document: ConnectorDocument): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await document.open()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function expectCode(promise: Promise<unknown>, code: string, what: string): Promise<void> {
  const thrown = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(thrown, `${what} succeeded instead of failing with ${code}`).to.not.equal(null);
  expect(DocqaError.is(thrown) ? thrown.code : String(thrown), what).to.equal(code);
}

/** Opens a source with the valid config, runs `work`, and closes the source whatever happens. */
async function withSource<T>(state: Started, work: (source: ConnectorSource) => Promise<T>): Promise<T> {
  const parsed = state.provider.sourceConfigSchema.safeParse(state.validConfig);
  if (!parsed.success) throw new Error(`validConfig does not pass sourceConfigSchema: ${parsed.error.message}`);
  const source = await state.provider.open(parsed.data, { sourceId: conformanceSourceId });
  try {
    return await work(source);
  } finally {
    await source.close?.();
  }
}

async function syncAll(state: Started, cursor: string | null): Promise<ConnectorEvent[]> {
  return withSource(state, async (source) => {
    const events: ConnectorEvent[] = [];
    for await (const event of source.sync(cursor, new AbortController().signal)) events.push(event);
    return events;
  });
}

function upsertedDocuments(events: ConnectorEvent[]): ConnectorDocument[] {
  return events.flatMap((event) => (event.type === 'upsert' ? [event.document] : []));
}

function lastEventAbout(events: ConnectorEvent[], externalId: string): ConnectorEvent | undefined {
  return events.findLast(
    (event) =>
      (event.type === 'upsert' ? event.document.externalId : event.type === 'delete' ? event.externalId : null) ===
      externalId,
  );
}

function expectEndsWithCheckpoint(events: ConnectorEvent[]): void {
  const last = events.at(-1);
  expect(last?.type, 'the last event of a sync').to.equal('checkpoint');
  if (last?.type === 'checkpoint') expect(last.cursor, 'checkpoint cursor').to.be.a('string').and.not.equal('');
}

function checkpointOf(events: ConnectorEvent[]): string {
  expectEndsWithCheckpoint(events);
  return (events.at(-1) as Extract<ConnectorEvent, { type: 'checkpoint' }>).cursor;
}

async function expectReadableDocument(document: ConnectorDocument): Promise<void> {
  const label = `document ${JSON.stringify(document.externalId)}`;
  expect(document.externalId, 'externalId').to.be.a('string').and.not.equal('');
  expect(document.path, `path of ${label}`).to.be.a('string').and.not.equal('');
  if (document.modifiedAt !== undefined)
    expect(Number.isNaN(document.modifiedAt.getTime()), `modifiedAt of ${label} is a valid date`).to.equal(false);
  let bytes = 0;
  for await (const chunk of await document.open()) {
    expect(chunk, `a chunk of ${label}`).to.be.instanceOf(Uint8Array);
    bytes += chunk.byteLength;
  }
  expect(bytes, `bytes of ${label}`).to.be.above(0);
  if (document.size !== undefined) expect(bytes, `size declared by ${label}`).to.equal(document.size);
}

/** The contract: a cancelled sync throws the signal's reason (or, at least, an AbortError). */
function expectAbortError(thrown: unknown, reason: Error): void {
  if (thrown === reason) return;
  expect((thrown as Error | null)?.name, `sync threw ${String(thrown)} instead of the abort reason`).to.equal(
    'AbortError',
  );
}
