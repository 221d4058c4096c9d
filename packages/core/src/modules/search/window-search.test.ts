import crypto from 'node:crypto';
import { expect } from 'chai';
import { startTestModules, provide, type TestKernel } from '@docqa/kernel/testing';
import { analyzerVersion } from '../../index.js';
import { groupsTokens, type GroupsService } from '../groups/contract.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { rankChunks, type LexicalHit, type Ranking, type WeightedTerm } from './bm25-ranking.js';
import { corpusStatistics, idf, languageDetector, lexicalSearch, queryTerms } from './lexical-index.js';
import { reindexLexical } from './lexical-reindex.js';
import { searchModule } from './index.js';
import { documentsStandIn, insertDocument } from './search.test-support.js';
import { buildTermWindows, buildTermWindowsIfDue, termWindowsQueue, termWindowsSchedule } from './term-window-build.js';
import { rankWithWindows } from './window-search.js';

const everyone = { scopeFor: async () => ({ all: true }) } as unknown as GroupsService;
const lexicalOnly: CurrentModels = { switchedChatBackend: () => null, embedder: () => null };
/**
 * Small enough that the generated corpus has frequent terms: df from max(20, a tenth of the chunks);
 * a build reads 7 postings a statement, so that it crosses pages.
 */
const settings = { minimumDf: 20, chunkShare: 0.1, postingsPage: 7 };

const frequentWords = ['river', 'mountain', 'forest', 'valley', 'harbour'];
const rareWords = ['zephyr', 'quokka', 'walrus'];
const otherWords = [
  ...['bridge', 'castle', 'meadow', 'glacier', 'canyon', 'island', 'desert', 'lantern', 'orchard', 'quarry'],
  ...['engine', 'saddle', 'trumpet', 'violin', 'pepper', 'carpet', 'window', 'ladder', 'helmet', 'basket'],
];

function generator(seed: number) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
}

/** English-like chunks: filler words, each frequent word in about a third of them (tf 1–3), a few rare ones. */
function chunkTexts(random: () => number, count: number): string[] {
  return Array.from({ length: count }, () => {
    const words: string[] = [];
    const length = 8 + Math.floor(random() * 40);
    for (let i = 0; i < length; i++) words.push(otherWords[Math.floor(random() * otherWords.length)] as string);
    if (random() < 0.03) words.push(rareWords[Math.floor(random() * rareWords.length)] as string);
    for (const word of frequentWords)
      if (random() < 0.35) for (let n = 1 + Math.floor(random() * random() * 3); n > 0; n--) words.push(word);
    return `The ${words.join(' and the ')}.`;
  });
}

/** The query's terms weighted as lexicalSearch weighs them, rarest first. */
async function weighted(kernel: TestKernel, query: string) {
  const counts = queryTerms(query, ['en']);
  const statistics = await corpusStatistics(kernel.db, [...counts.keys()]);
  const terms = [...counts.keys()]
    .filter((term) => (statistics.documentFrequency.get(term) ?? 0) > 0)
    .map((term) => {
      const df = statistics.documentFrequency.get(term) as number;
      return { term, df, weight: idf(statistics.chunks, df) };
    })
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  const windowDf = Math.max(settings.minimumDf, Math.ceil(statistics.chunks * settings.chunkShare));
  return { terms: terms as WeightedTerm[], averageLength: statistics.averageLength, windowDf };
}

/** Same length and scores; the same chunks but among equal scores (SQL sums in any order, ties by id). */
function expectSameTopK(actual: readonly LexicalHit[], expected: readonly LexicalHit[]) {
  expect(actual.map((hit) => hit.score)).to.have.length(expected.length);
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  expected.forEach((hit, i) => expect(same((actual[i] as LexicalHit).score, hit.score), `score ${i}`).to.equal(true));
  for (let start = 0; start < expected.length;) {
    let end = start + 1;
    while (end < expected.length && same((expected[end] as LexicalHit).score, (expected[start] as LexicalHit).score))
      end++;
    // The last group of ties may be cut anywhere at k.
    if (end < expected.length) {
      const ids = (hits: readonly LexicalHit[]) =>
        hits
          .slice(start, end)
          .map((hit) => `${hit.chunkId}/${hit.documentId}`)
          .sort();
      expect(ids(actual), `ranks ${start}-${end - 1}`).to.deep.equal(ids(expected));
    }
    start = end;
  }
}

describe('lexical search from frequent terms’ windows (the same top k as the SQL ranking)', function () {
  this.timeout(300_000);
  let kernel: TestKernel;
  const random = generator(31);
  const documents: string[] = [];
  const queries = [
    'river',
    'river mountain',
    'forest valley harbour',
    'river mountain forest valley',
    'river mountain forest valley harbour',
    'castle river forest',
    'glacier violin mountain',
    'zephyr river mountain',
    'quokka walrus forest',
  ];

  /** One query at one k through both rankings, compared; answers SQL's top k and whether the windows answered. */
  async function compareRankings(query: string, topK: number, visibleToGroups: string[] | null) {
    const { terms, averageLength, windowDf } = await weighted(kernel, query);
    const ranking: Ranking = { db: kernel.db, scope: { visibleToGroups }, averageLength, topK };
    const expected = await rankChunks(ranking, terms);
    const actual = await rankWithWindows({ ...ranking, windowDf }, terms);
    expectSameTopK(actual ?? expected, expected);
    return { expected, windowed: actual !== null };
  }

  /** Each query at several k through both paths; answers how many went through the windows. */
  async function compareAll(): Promise<number> {
    let windowed = 0;
    for (const query of queries)
      for (const topK of [1, 5, 20, 60]) {
        const compared = await compareRankings(query, topK, null);
        if (compared.windowed) windowed++;
        const { expected } = compared;
        const searched = await lexicalSearch(kernel.db, query, { visibleToGroups: null, topK, termWindows: settings });
        expectSameTopK(searched, expected);
      }
    return windowed;
  }

  async function addDocuments(count: number) {
    for (let i = 0; i < count; i++)
      documents.push(await insertDocument(kernel.db, `doc-${documents.length}.txt`, chunkTexts(random, 8)));
  }

  before(async () => {
    kernel = await startTestModules({
      modules: [documentsStandIn, searchModule],
      provide: [provide(groupsTokens.service, everyone), provide(modelsTokens.current, lexicalOnly)],
    });
    await addDocuments(60);
  });
  after(() => kernel?.dispose());

  it('has no windows before a build, and answers from SQL', async () => {
    const { terms, averageLength } = await weighted(kernel, 'river mountain');
    const ranking: Ranking = { db: kernel.db, scope: { visibleToGroups: null }, averageLength, topK: 5, windowDf: 20 };
    expect(await rankWithWindows(ranking, terms)).to.equal(null);
  });

  it('is built by a scheduled job, only when no build covers enough of the chunks', async () => {
    const { rows } = await kernel.db.query(`select cron from pgboss.schedule where name = $1`, [termWindowsQueue]);
    expect(rows).to.deep.equal([{ cron: termWindowsSchedule.cron }]);
    expect(await buildTermWindowsIfDue(kernel.db, { ...settings, minimumDf: 100_000 })).to.equal(null);
    expect((await buildTermWindowsIfDue(kernel.db, settings))?.watermark).to.be.greaterThan(0);
    // The tail is empty now; fewer than 1,024 new chunks are not worth a build.
    expect(await buildTermWindowsIfDue(kernel.db, settings)).to.equal(null);
  });

  it('builds windows of the frequent terms only, and ranks from them as SQL does', async () => {
    const built = await buildTermWindows(kernel.db, settings);
    expect(built.terms).to.be.at.least(frequentWords.length);
    const { rows } = await kernel.db.query<{ term: string }>('select distinct term from term_window order by term');
    expect(rows.map((row) => row.term))
      .to.include.members(['river', 'mountain'])
      .and.not.include('zephyr');
    expect(await compareAll()).to.be.at.least(queries.length * 4 - 4);
  });

  it('leaves out the chunks of documents granted only to other groups, as SQL does', async () => {
    // The groups module's grants, as documentAccessPredicate reads them.
    await kernel.db.query(
      'create table resource_access (resource_type text not null, resource_id text not null, group_id uuid not null)',
    );
    const [granted, other] = [crypto.randomUUID(), crypto.randomUUID()];
    const grantedDocuments = documents.filter((_, i) => i % 2 === 0);
    await kernel.db.query(
      `insert into resource_access (resource_type, resource_id, group_id) select 'document', unnest($1::text[]), $2`,
      [grantedDocuments, granted],
    );
    let windowed = 0;
    for (const groups of [[other], [granted]])
      for (const query of queries)
        for (const topK of [1, 5, 20]) {
          const { expected, windowed: throughWindows } = await compareRankings(query, topK, groups);
          if (throughWindows) windowed++;
          if (groups[0] === other)
            expect(expected.filter((hit) => grantedDocuments.includes(hit.documentId))).to.deep.equal([]);
        }
    await kernel.db.query('drop table resource_access');
    expect(windowed).to.be.at.least(queries.length * 2);
  });

  it("builds the same windows whether it reads a term's postings in many statements or in one", async () => {
    const windows = async () =>
      (
        await kernel.db.query<{ row: string }>(
          `select term || '/' || window_no || '/' || postings || '/' || md5(payload) as row from term_window
           order by term, window_no`,
        )
      ).rows.map((row) => row.row);
    const paged = await windows();
    expect(paged.length).to.be.at.least(frequentWords.length);
    await buildTermWindows(kernel.db, { ...settings, postingsPage: 100_000 });
    expect(await windows()).to.deep.equal(paged);
  });

  it('stays the same as SQL with a tail, deleted and unindexed documents, and documents indexed again', async () => {
    // The new chunks' numbers cross into a second window (of 65,536 numbers).
    await kernel.db.query(`select setval(pg_get_serial_sequence('lexical_chunk_number', 'number'), 65500)`);
    await addDocuments(15);
    for (const id of documents.splice(3, 4)) await kernel.db.query('delete from document where id = $1', [id]);
    await kernel.db.query(`update document set status = 'indexing' where id = any($1::uuid[])`, [
      documents.slice(10, 13),
    ]);
    // Indexed again: the document's chunks gone, its text back as new chunks.
    const again = documents[20] as string;
    await kernel.db.query('delete from chunk where document_id = $1', [again]);
    await kernel.db.query('delete from document where id = $1', [again]);
    documents[20] = await insertDocument(kernel.db, `again-${crypto.randomUUID()}.txt`, chunkTexts(random, 8));
    expect(await compareAll()).to.be.at.least(queries.length * 4 - 4);
    // Built again: the tail now in windows 0 and 1.
    await buildTermWindows(kernel.db, settings);
    const { rows } = await kernel.db.query<{ window_no: number }>(
      `select distinct window_no from term_window where term = 'river' order by window_no`,
    );
    expect(rows.map((row) => row.window_no)).to.deep.equal([0, 1]);
    expect(await compareAll()).to.be.at.least(queries.length * 4 - 4);
  });

  it('stays the same as SQL after the postings are analysed again (every chunk renumbered), then rebuilt', async () => {
    const job = { data: { version: analyzerVersion }, progress: async () => {}, signal: new AbortController().signal };
    await reindexLexical(kernel.db, languageDetector(), job as never);
    const { rows } = await kernel.db.query<{ stale: string }>(
      `select count(*) as stale from lexical_chunk_number n, term_window_build b where n.number <= b.watermark`,
    );
    expect(Number(rows[0]?.stale)).to.equal(0);
    await compareAll();
    const rebuilt = await buildTermWindows(kernel.db, settings);
    expect(rebuilt.watermark).to.be.greaterThan(0);
    expect(await compareAll()).to.be.at.least(queries.length * 4 - 4);
  });
});
