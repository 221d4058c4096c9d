import { Readable } from 'node:stream';
import { expect } from 'chai';
import { defineModule, DocqaError } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { standardModules } from '../index.js';
import txtExtractor from '@docqa/plugin-extractor-txt';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { searchTokens } from '../search/contract.js';
import { documentsTokens, type DocumentService } from './contract.js';
import { documentsModule } from './index.js';

// The users' table the documents' uploader column references; in the product identity makes it.
const usersStandIn = defineModule({
  id: 'test-users',
  deps: {},
  provides: {},
  migrations: [{ name: '0001_test_app_user', up: ['create table app_user (id uuid primary key)'] }],
  init: () => ({}),
});
/** The standard modules indexing needs, composed as the product composes them. */
const standard = (...ids: string[]) => ids.map((id) => standardModules.find((module) => module.id === id)!);
const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
const ada = { userId: '5e0c4a4e-0000-4000-8000-000000000001', username: 'ada', role: 'editor' as const };

/** A multipart/form-data body with one file part, as a browser sends it. */
function uploadOf(filename: string, text: string) {
  const boundary = 'docqa-test-boundary';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    `Content-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`;
  return { stream: Readable.from([Buffer.from(body)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('documents module (without the HTTP server)', function () {
  this.timeout(90_000);
  let kernel: TestKernel;
  let documents: DocumentService;

  before(async () => {
    kernel = await startTestModules({
      modules: [usersStandIn, ...standard('license', 'sources', 'rules', 'analytics', 'search'), documentsModule],
      provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
      plugins: [{ plugin: txtExtractor, options: {} }],
    });
    await kernel.db.query('insert into app_user (id) values ($1)', [ada.userId]);
    documents = kernel.resolve(documentsTokens.service);
  });
  after(() => kernel.dispose());

  async function indexed(id: string): Promise<{ status: string; chunk_count: number; error: string | null }> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const document = await documents.get(ada, id);
      if (document.status === 'indexed' || document.status === 'failed') return document;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`document ${id} was not indexed within 60 s`);
  }

  it('stores an upload, indexes it in its worker, and search finds it by a word of it', async () => {
    const text = 'The cooling period of the Zorblax reactor is nine hours after every shutdown.';
    const [stored] = await documents.upload(uploadOf('zorblax.txt', text), ada);
    expect(stored).to.include({ filename: 'zorblax.txt', duplicate: false });
    const document = await indexed(stored!.id);
    expect([document.status, document.error]).to.deep.equal(['indexed', null]);
    expect(document.chunk_count).to.be.greaterThan(0);
    const found = await kernel.resolve(searchTokens.service).search(ada, { query: 'zorblax cooling', topK: 3 });
    expect(found.items.map((hit) => hit.document_id)).to.include(stored!.id);
    const again = await documents.upload(uploadOf('copy.txt', text), ada);
    expect(again[0]).to.include({ id: stored!.id, duplicate: true });
  });

  it('refuses a file no extractor reads before storing anything, and lists with the real total', async () => {
    const refused = await documents.upload(uploadOf('tool.exe', 'MZ'), ada).catch((error: unknown) => error);
    expect(DocqaError.is(refused, 'unsupported_media_type')).to.equal(true);
    const page = await documents.list(ada, { limit: 10, offset: 5 });
    expect([page.items.length, page.total]).to.deep.equal([0, 1]);
  });

  it('deletes a document with its chunks and postings', async () => {
    const { items } = await documents.list(ada, { limit: 10, offset: 0 });
    expect(await documents.delete(items.map((item) => item.id))).to.deep.equal({
      deleted: items.map((item) => item.id),
      not_found: [],
    });
    const { rows } = await kernel.db.query<{ chunks: string; postings: string }>(
      'select (select count(*) from chunk) as chunks, (select count(*) from chunk_term) as postings',
    );
    expect(rows[0]).to.deep.equal({ chunks: '0', postings: '0' });
    const gone = await documents.get(ada, items[0]!.id).catch((error: unknown) => error);
    expect(DocqaError.is(gone, 'not_found')).to.equal(true);
  });
});
