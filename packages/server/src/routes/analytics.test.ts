import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { z } from 'zod';
import { definePreset, type Plan } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { withoutLicenseGate } from '../testing/standard-with-license.js';
import { analyticsRoutes } from './analytics.js';
import { buildOpenApi } from '../http/openapi.js';
import * as schemas from '@docqa/core/analytics';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let plan: Plan = 'PRO';
const license = licenseStandIn(() => ({ plan, limits: { documents: null, fileSizeBytes: null, storageBytes: null } }));

/** A paragraph of exactly `length` characters, so every chunk length below is known by construction. */
const para = (text: string, length: number) => {
  if (text.length > length) throw new Error(`"${text}" is longer than ${length}`);
  return text.padEnd(length, '.');
};

/*
 * The corpus: five feed records; the record id is the document's path and file name. The rule
 * `part` (a chunk_boundary) starts a chunk at every "Part n", so each paragraph is one chunk and
 * every chunk length is the paragraph length given here.
 *
 *   finance-travel  c0 40 "Department: Finance"   c1 120 Part 1 Section 7   c2 80 Part 2 (inherits 7)   c3 260 Part 3 Section 9
 *   legal-contracts c0 30 Part 1                  c1 150 Part 2 § 4          c2 450 Part 3 (inherits 4)
 *   notes           c0 45 no marker at all
 *   ops-manual      c0 60 intro                   c1 210 Part 1 Section 2 and § 8   c2 90 Part 2 aaaa…! (inherits 2)
 *   faq             c0 35 intro                   c1 100 Part 1 Section 3
 */
const feed = [
  {
    id: 'finance-travel',
    paragraphs: [
      para('Department: Finance', 40),
      para('Part 1 Section 7 applies to travel costs.', 120),
      para('Part 2 Receipts are kept for ten years.', 80),
      para('Part 3 Section 9 covers meals.', 260),
    ],
  },
  {
    id: 'legal-contracts',
    paragraphs: [
      para('Part 1 General terms.', 30),
      para('Part 2 § 4 Liability is limited.', 150),
      para('Part 3 Termination needs notice.', 450),
    ],
  },
  { id: 'notes', paragraphs: [para('Plain notes without any markers at all.', 45)] },
  {
    id: 'ops-manual',
    paragraphs: [
      para('Intro text for operations staff.', 60),
      para('Part 1 Section 2 and § 8 both appear here.', 210),
      para(`Part 2 ${'a'.repeat(40)}!`, 90),
    ],
  },
  { id: 'faq', paragraphs: [para('Questions people ask often.', 35), para('Part 1 Section 3 answers.', 100)] },
];

/*
 * Rules, in evaluation order (priority, higher first):
 *   dept    document full     "Department: (\w+)"   10
 *   part    chunk    full     "(?m)^Part (\d+)"      5  chunk_boundary
 *   section chunk    full     "Section (\d+)"        3
 *   section chunk    full     "§ ?(\d+)"             2  (fallback notation)
 *   dept    document filename "^(\w+)-"              1  (fallback: the file name's prefix)
 *   noise   document full     "(a+)+$"               0  (catastrophic backtracking on ops-manual: over its 50 ms)
 */
const rules = {
  deptText: { field_name: 'dept', pattern: 'Department: (\\w+)', scope: 'full', level: 'document', priority: 10 },
  part: {
    field_name: 'part',
    pattern: '(?m)^Part (\\d+)',
    scope: 'full',
    level: 'chunk',
    priority: 5,
    chunk_boundary: true,
  },
  section: { field_name: 'section', pattern: 'Section (\\d+)', scope: 'full', level: 'chunk', priority: 3 },
  paragraphSign: { field_name: 'section', pattern: '§ ?(\\d+)', scope: 'full', level: 'chunk', priority: 2 },
  deptFilename: { field_name: 'dept', pattern: '^(\\w+)-', scope: 'filename', level: 'document', priority: 1 },
  noise: { field_name: 'noise', pattern: '(a+)+$', scope: 'full', level: 'document', priority: 0 },
};

describe('analytics (spec 4.7) on a known corpus', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let sourceId: string;
  const ruleIds: Record<keyof typeof rules, string> = {} as never;
  const docIds: Record<string, string> = {};

  const call = async (method: string, route: string, payload?: unknown, token = admin) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: payload === undefined ? null : JSON.stringify(payload),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  /** An analytics answer, checked against the schema the OpenAPI document publishes. */
  const analytics = async <S extends z.ZodType>(
    suffix: string,
    schema: S,
    source = sourceId,
    token = admin,
  ): Promise<Json> => {
    const res = await call('GET', `/api/analytics/${source}/${suffix}`, undefined, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    schema.parse(res.body);
    return res.body;
  };
  const waitFor = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 600; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('timed out');
  };
  const waitJob = (id: string) =>
    waitFor(async () => {
      const job = (await call('GET', `/api/jobs/${id}`)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
    });
  const waitIndexed = (count: number) =>
    waitFor(async () => {
      const items = (await call('GET', '/api/docs?limit=100')).body.items as Json[];
      return items.length === count && items.every((d) => d.status === 'indexed') ? items : undefined;
    });
  const login = async (username: string, password: string) =>
    (
      (await (
        await fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        })
      ).json()) as Json
    ).access_token as string;
  const ruleRow = (body: Json, rule: keyof typeof rules) =>
    (body.rules as Json[]).find((r) => r.rule_id === ruleIds[rule])!;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-analytics-'));
    const feedPath = path.join(dataDir, 'feed.jsonl');
    fs.writeFileSync(
      feedPath,
      feed
        .map((record) =>
          JSON.stringify({
            id: record.id,
            title: record.id,
            body: record.paragraphs.join('\n\n'),
            updated_at: '2026-01-01T00:00:00Z',
          }),
        )
        .join('\n'),
    );
    const database = process.env.TEST_DATABASE_URL
      ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL)
      : null;
    drop = database?.drop;
    server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        RAG_MIN_CHUNK_LENGTH: '5',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'test',
          plugins: (context) => [
            ...withoutLicenseGate(standardPreset.plugins(context)),
            { plugin: connectorTemplate },
            { plugin: license },
          ],
        }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    admin = await login('admin', 'admin-password-1');
    sourceId = (
      await call('POST', '/api/integrations', { name: 'Handbook', type: 'json-feed', config: { path: feedPath } })
    ).body.id;
    for (const [name, rule] of Object.entries(rules)) {
      const created = await call('POST', `/api/metadata/${sourceId}/rules`, rule);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      ruleIds[name as keyof typeof rules] = created.body.id;
    }
    await waitJob((await call('POST', `/api/integrations/${sourceId}/sync`)).body.job_id);
    // An uploaded document of one 70-character paragraph: the `uploads` id analyses it alone.
    const form = new FormData();
    form.append(
      'file',
      new Blob([para('An uploaded memo about nothing in particular.', 70)], { type: 'text/plain' }),
      'memo.txt',
    );
    expect(
      (
        await fetch(`${server.url}/api/docs/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}` },
          body: form,
        })
      ).status,
    ).to.equal(202);
    for (const document of await waitIndexed(6)) docIds[document.path] = document.id;
    const { rows } = await server.kernel.db.query<{ path: string; n: number }>(
      `select d.path, char_length(c.text) as n from chunk c join document d on d.id = c.document_id where d.source_id = $1 order by d.path, c.position`,
      [sourceId],
    );
    // The corpus chunks as designed, or every expected number below would be off.
    expect(rows.map((row) => `${row.path}:${row.n}`)).to.deep.equal([
      'faq:35',
      'faq:100',
      'finance-travel:40',
      'finance-travel:120',
      'finance-travel:80',
      'finance-travel:260',
      'legal-contracts:30',
      'legal-contracts:150',
      'legal-contracts:450',
      'notes:45',
      'ops-manual:60',
      'ops-manual:210',
      'ops-manual:90',
    ]);
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('chunk-size-distribution: summary and histogram of chunk lengths', async () => {
    // RAG_MIN_CHUNK_LENGTH was 5 at indexing; raised to 50 now, the four chunks under 50 show up.
    expect((await call('PATCH', '/api/admin/settings', { RAG_MIN_CHUNK_LENGTH: 50 })).status).to.equal(200);
    const body = await analytics('chunk-size-distribution', schemas.chunkSizeDistributionSchema);
    // Sorted: 30 35 40 45 60 80 90 100 120 150 210 260 450 (13 chunks).
    // Sum 30+35+40+45 = 150, +60+80+90 = 380, +100+120+150 = 750, +210+260 = 1220, +450 = 1670; mean 1670/13 = 128.46.
    // Median: position (13-1)·0.5 = 6 → 90. p90: position (13-1)·0.9 = 10.8 → 210 + 0.8·(260-210) = 250.
    expect(body).to.deep.include({
      source_id: sourceId,
      source_type: 'integration',
      documents: 5,
      unit: 'characters',
      min_chunk_length: 50,
      below_min_chunk_length: 4,
    });
    expect(body.summary).to.deep.equal({ count: 13, min: 30, max: 450, mean: 128.46, median: 90, p90: 250 });
    // [0,50): 30 35 40 45 · [50,100): 60 80 90 · [100,200): 100 120 150 · [200,400): 210 260 · [400,600): 450.
    expect(body.histogram.slice(0, 6)).to.deep.equal([
      { min: 0, max: 50, count: 4 },
      { min: 50, max: 100, count: 3 },
      { min: 100, max: 200, count: 3 },
      { min: 200, max: 400, count: 2 },
      { min: 400, max: 600, count: 1 },
      { min: 600, max: 800, count: 0 },
    ]);
    expect(body.histogram.at(-1)).to.deep.equal({ min: 5000, max: null, count: 0 });
    expect((body.histogram as Json[]).reduce((sum, bucket) => sum + bucket.count, 0)).to.equal(13);
    await call('PATCH', '/api/admin/settings', { RAG_MIN_CHUNK_LENGTH: 5 });
  });

  it('chunks-per-document: summary, histogram and the largest documents', async () => {
    const body = await analytics('chunks-per-document', schemas.chunksPerDocumentSchema);
    // Chunks per document: finance-travel 4, legal-contracts 3, notes 1, ops-manual 3, faq 2 → sorted 1 2 3 3 4.
    // Mean 13/5 = 2.6; median position 2 → 3; p90 position 4·0.9 = 3.6 → 3 + 0.6·(4-3) = 3.6.
    expect(body).to.deep.include({ documents: 5, documents_not_indexed: 0 });
    expect(body.summary).to.deep.equal({ count: 5, min: 1, max: 4, mean: 2.6, median: 3, p90: 3.6 });
    // [0,1): 0 · [1,2): notes · [2,3): faq · [3,5): finance-travel, legal-contracts, ops-manual.
    expect(body.histogram.slice(0, 5).map((b: Json) => b.count)).to.deep.equal([0, 1, 1, 3, 0]);
    // Most chunks first, ties by path.
    expect(body.largest.map((d: Json) => `${d.path}:${d.chunks}`)).to.deep.equal([
      'finance-travel:4',
      'legal-contracts:3',
      'ops-manual:3',
      'faq:2',
      'notes:1',
    ]);
  });

  it('metadata-hit-rate: per rule, documents matched, missed, shadowed or failed, and chunks', async () => {
    const body = await analytics('metadata-hit-rate', schemas.metadataHitRateSchema);
    expect(body).to.deep.include({ documents: 5, chunks: 13 });
    expect(
      body.rules.map((r: Json) => r.rule_id),
      'evaluation order',
    ).to.deep.equal([
      ruleIds.deptText,
      ruleIds.part,
      ruleIds.section,
      ruleIds.paragraphSign,
      ruleIds.deptFilename,
      ruleIds.noise,
    ]);
    const pick = (rule: keyof typeof rules) => {
      const {
        matched,
        no_match,
        shadowed,
        failed,
        not_applied,
        stale,
        self_chunks,
        inherited_chunks,
        document_match_rate,
        document_hit_rate,
        chunk_hit_rate,
        chunk_value_rate,
      } = ruleRow(body, rule);
      return {
        matched,
        no_match,
        shadowed,
        failed,
        not_applied,
        stale,
        self_chunks,
        inherited_chunks,
        document_match_rate,
        document_hit_rate,
        chunk_hit_rate,
        chunk_value_rate,
      };
    };
    // "Department:" only in finance-travel; its value is on all 4 of its chunks. 1/5 = 0.2; 4/13 = 0.3077.
    expect(pick('deptText')).to.deep.equal({
      matched: 1,
      no_match: 4,
      shadowed: 0,
      failed: 0,
      not_applied: 0,
      stale: 0,
      self_chunks: 4,
      inherited_chunks: 0,
      document_match_rate: 0.2,
      document_hit_rate: 0.2,
      chunk_hit_rate: 0.3077,
      chunk_value_rate: 0.3077,
    });
    // "Part n" in every document but notes; chunks with their own Part: 3 + 3 + 2 + 1 = 9 → 9/13 = 0.6923.
    expect(pick('part')).to.deep.equal({
      matched: 4,
      no_match: 1,
      shadowed: 0,
      failed: 0,
      not_applied: 0,
      stale: 0,
      self_chunks: 9,
      inherited_chunks: 0,
      document_match_rate: 0.8,
      document_hit_rate: 0.8,
      chunk_hit_rate: 0.6923,
      chunk_value_rate: 0.6923,
    });
    // "Section n" in finance-travel (own 2, inherited 1), ops-manual (1, 1), faq (1, 0): self 4, inherited 2.
    // 4/13 = 0.3077; (4+2)/13 = 0.4615.
    expect(pick('section')).to.deep.equal({
      matched: 3,
      no_match: 2,
      shadowed: 0,
      failed: 0,
      not_applied: 0,
      stale: 0,
      self_chunks: 4,
      inherited_chunks: 2,
      document_match_rate: 0.6,
      document_hit_rate: 0.6,
      chunk_hit_rate: 0.3077,
      chunk_value_rate: 0.4615,
    });
    // "§ n" runs only where "Section" found nothing (legal-contracts: won, own 1, inherited 1; notes: no
    // match) and is shadowed in the 3 others. Match rate 1/(1+1) = 0.5; 1/13 = 0.0769; 2/13 = 0.1538.
    expect(pick('paragraphSign')).to.deep.equal({
      matched: 1,
      no_match: 1,
      shadowed: 3,
      failed: 0,
      not_applied: 0,
      stale: 0,
      self_chunks: 1,
      inherited_chunks: 1,
      document_match_rate: 0.5,
      document_hit_rate: 0.2,
      chunk_hit_rate: 0.0769,
      chunk_value_rate: 0.1538,
    });
    // The file-name prefix: legal-contracts and ops-manual (3 chunks each: 6/13 = 0.4615); notes and faq
    // have no "-"; finance-travel already had dept. Match rate 2/4 = 0.5.
    expect(pick('deptFilename')).to.deep.equal({
      matched: 2,
      no_match: 2,
      shadowed: 1,
      failed: 0,
      not_applied: 0,
      stale: 0,
      self_chunks: 6,
      inherited_chunks: 0,
      document_match_rate: 0.5,
      document_hit_rate: 0.4,
      chunk_hit_rate: 0.4615,
      chunk_value_rate: 0.4615,
    });
    // "(a+)+$" overruns its budget on ops-manual's 40 a's and finds nothing elsewhere: 0/(0+4+1) = 0.
    expect(pick('noise')).to.deep.equal({
      matched: 0,
      no_match: 4,
      shadowed: 0,
      failed: 1,
      not_applied: 0,
      stale: 0,
      self_chunks: 0,
      inherited_chunks: 0,
      document_match_rate: 0,
      document_hit_rate: 0,
      chunk_hit_rate: 0,
      chunk_value_rate: 0,
    });
  });

  it('metadata-coverage: per field, documents and chunks holding a value', async () => {
    const body = await analytics('metadata-coverage', schemas.metadataCoverageSchema);
    expect(body).to.deep.include({ documents: 5, chunks: 13 });
    const coverage = Object.fromEntries(
      (body.fields as Json[]).map((f) => [
        f.field_name,
        [f.documents_with_value, f.document_coverage, f.chunks_with_value, f.chunk_coverage, f.rule_ids.length],
      ]),
    );
    expect(coverage).to.deep.equal({
      // finance-travel (4 chunks), legal-contracts (3), ops-manual (3): 3/5 = 0.6, 10/13 = 0.7692.
      dept: [3, 0.6, 10, 0.7692, 2],
      // Never matched, still listed: a rule that does nothing is what the operator needs to see.
      noise: [0, 0, 0, 0, 1],
      // 9 chunks with their own Part, in 4 documents: 0.8, 9/13 = 0.6923.
      part: [4, 0.8, 9, 0.6923, 1],
      // finance-travel 3 + legal-contracts 2 + ops-manual 2 + faq 1 = 8 chunks in 4 documents: 8/13 = 0.6154.
      section: [4, 0.8, 8, 0.6154, 2],
    });
  });

  it('inheritance-ratio: self, inherited and empty chunks of chunk-level fields', async () => {
    const body = await analytics('inheritance-ratio', schemas.inheritanceRatioSchema);
    const [part, section] = body.fields as [Json, Json];
    // part: 9 own; empty are the 4 chunks before any Part (finance-travel, notes, ops-manual, faq c0): 9/13, 4/13.
    expect(part).to.deep.include({
      field_name: 'part',
      documents: 5,
      chunks: 13,
      self: 9,
      inherited: 0,
      document_level: 0,
      empty: 4,
      self_ratio: 0.6923,
      inherited_ratio: 0,
      empty_ratio: 0.3077,
      inherited_share: 0,
    });
    // section: own 4 (Section) + 1 (§) = 5; inherited 2 + 1 = 3; empty 13 - 8 = 5 (every document's c0).
    // 5/13 = 0.3846, 3/13 = 0.2308, 5/13 = 0.3846; inherited share 3/8 = 0.375.
    expect(section).to.deep.include({
      field_name: 'section',
      documents: 5,
      chunks: 13,
      self: 5,
      inherited: 3,
      document_level: 0,
      empty: 5,
      self_ratio: 0.3846,
      inherited_ratio: 0.2308,
      empty_ratio: 0.3846,
      inherited_share: 0.375,
    });
    expect(section.rules).to.deep.equal([
      { rule_id: ruleIds.section, priority: 3, documents_won: 3, self: 4, inherited: 2 },
      { rule_id: ruleIds.paragraphSign, priority: 2, documents_won: 1, self: 1, inherited: 1 },
    ]);
  });

  it('empty-metadata: chunks without any value and the documents holding them', async () => {
    const body = await analytics('empty-metadata', schemas.emptyMetadataSchema);
    // notes c0 (no rule matches it at all) and faq c0 (before its first Part, no dept): 2/13 = 0.1538.
    expect(body).to.deep.include({
      documents: 5,
      chunks: 13,
      empty_chunks: 2,
      empty_ratio: 0.1538,
      documents_with_empty_chunks: 2,
      documents_all_empty: 1,
    });
    expect(body.samples).to.deep.equal([
      { document_id: docIds.faq, path: 'faq', empty_chunks: 1, chunks: 2 },
      { document_id: docIds.notes, path: 'notes', empty_chunks: 1, chunks: 1 },
    ]);
  });

  it('rule-priority-audit: winners of fields with competing rules', async () => {
    const body = await analytics('rule-priority-audit', schemas.rulePriorityAuditSchema);
    const summary = (body.fields as Json[]).map((f) => ({
      field: f.field_name,
      with: f.documents_with_value,
      without: f.documents_without_value,
      ties: f.equal_priorities,
      rules: (f.rules as Json[]).map((r) => [
        r.rank,
        r.rule_id,
        r.matched,
        r.no_match,
        r.shadowed,
        r.win_share,
        r.chunks_supplied,
      ]),
    }));
    expect(summary).to.deep.equal([
      // dept: 1 + 2 = 3 documents with a value; notes and faq have none. Shares 1/3, 2/3.
      {
        field: 'dept',
        with: 3,
        without: 2,
        ties: false,
        rules: [
          [1, ruleIds.deptText, 1, 4, 0, 0.3333, 4],
          [2, ruleIds.deptFilename, 2, 2, 1, 0.6667, 6],
        ],
      },
      // section: 3 + 1 = 4 with a value; notes has none. Shares 3/4, 1/4; chunks 4+2 and 1+1.
      {
        field: 'section',
        with: 4,
        without: 1,
        ties: false,
        rules: [
          [1, ruleIds.section, 3, 2, 0, 0.75, 6],
          [2, ruleIds.paragraphSign, 1, 1, 3, 0.25, 2],
        ],
      },
    ]);
  });

  it('says when outcomes are stale or missing, and a metadata refresh brings them up to date', async () => {
    // A new dept rule tying with "Department:" at 10, matching nothing; and the noise rule fixed.
    const owner = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'dept',
      pattern: 'Owner: (\\w+)',
      scope: 'full',
      level: 'document',
      priority: 10,
    });
    await call('PUT', `/api/metadata/${sourceId}/rules/${ruleIds.noise}`, { ...rules.noise, pattern: '(zzz)' });
    let body = await analytics('metadata-hit-rate', schemas.metadataHitRateSchema);
    expect((body.rules as Json[]).find((r) => r.rule_id === owner.body.id)).to.deep.include({
      matched: 0,
      not_applied: 5,
      stale: 0,
      document_match_rate: null,
    });
    expect(ruleRow(body, 'noise')).to.deep.include({ stale: 5, not_applied: 0 });
    expect((await analytics('rule-priority-audit', schemas.rulePriorityAuditSchema)).fields[0]).to.deep.include({
      field_name: 'dept',
      equal_priorities: true,
    });

    expect(await waitJob((await call('POST', `/api/metadata/${sourceId}/refresh`)).body.job_id)).to.include({
      status: 'succeeded',
    });
    body = await analytics('metadata-hit-rate', schemas.metadataHitRateSchema);
    const added = (body.rules as Json[]).find((r) => r.rule_id === owner.body.id)!;
    // Equal priorities are ordered by rule id, so "Owner:" either ran everywhere or was shadowed in
    // finance-travel: either way it matched nothing in 5 documents.
    expect([added.matched, added.no_match + added.shadowed, added.not_applied, added.stale]).to.deep.equal([
      0, 5, 0, 0,
    ]);
    expect(ruleRow(body, 'noise')).to.deep.include({ matched: 0, no_match: 5, failed: 0, stale: 0 });
    // The refresh sees the same text, so the other rules' figures are as before.
    expect(ruleRow(body, 'section')).to.deep.include({ matched: 3, no_match: 2, self_chunks: 4, inherited_chunks: 2 });
    expect(ruleRow(body, 'deptFilename')).to.deep.include({ matched: 2, no_match: 2, shadowed: 1, self_chunks: 6 });
    await call('DELETE', `/api/metadata/${sourceId}/rules/${owner.body.id}`);
  });

  it('analyses uploaded documents under the reserved id `uploads`', async () => {
    const sizes = await analytics('chunk-size-distribution', schemas.chunkSizeDistributionSchema, 'uploads');
    expect(sizes).to.deep.include({ source_id: 'uploads', source_type: 'upload', documents: 1 });
    expect(sizes.summary).to.deep.include({ count: 1, min: 70, max: 70, median: 70 });
    expect((await analytics('metadata-hit-rate', schemas.metadataHitRateSchema, 'uploads')).rules).to.deep.equal([]);
    expect(await analytics('empty-metadata', schemas.emptyMetadataSchema, 'uploads')).to.deep.include({
      chunks: 1,
      empty_chunks: 1,
      documents_all_empty: 1,
    });
    for (const suffix of ['metadata-coverage', 'chunks-per-document', 'inheritance-ratio', 'rule-priority-audit']) {
      expect((await call('GET', `/api/analytics/uploads/${suffix}`)).status).to.equal(200);
    }
  });

  it('counts only the documents the caller may see (ENTERPRISE group grants)', async () => {
    plan = 'ENTERPRISE';
    try {
      const group = (await call('POST', '/api/groups', { name: 'Finance team' })).body.id;
      await call('PUT', `/api/access/document/${docIds['finance-travel']}`, { group_ids: [group] });
      await call('POST', '/api/auth/users', { username: 'reader', password: 'reader-password-1', role: 'viewer' });
      const reader = await login('reader', 'reader-password-1');
      // Without finance-travel (4 chunks): 4 documents, 13 - 4 = 9 chunks; dept now only from file names.
      const seen = await analytics('metadata-hit-rate', schemas.metadataHitRateSchema, sourceId, reader);
      expect(seen).to.deep.include({ documents: 4, chunks: 9 });
      expect(ruleRow(seen, 'deptText')).to.deep.include({ matched: 0, no_match: 4 });
      expect(
        (await analytics('chunks-per-document', schemas.chunksPerDocumentSchema, sourceId, reader)).largest.map(
          (d: Json) => d.path,
        ),
      ).to.not.include('finance-travel');
      expect(
        (await analytics('chunks-per-document', schemas.chunksPerDocumentSchema)).documents,
        'the admin still sees all',
      ).to.equal(5);
      await call('PUT', `/api/access/document/${docIds['finance-travel']}`, { group_ids: [] });
    } finally {
      plan = 'PRO';
    }
  });

  it("is described in the OpenAPI document: PRO, any signed-in user, the answer's schema", () => {
    const paths = (buildOpenApi(analyticsRoutes, { version: 'test' }) as Json).paths as Json;
    for (const route of analyticsRoutes) {
      const operation = paths[route.path].get;
      expect(operation).to.include({ 'x-docqa-access': 'required', 'x-docqa-plan': 'PRO' });
      expect(operation.responses['200'].content['application/json'].schema.properties).to.include.keys(
        'source_id',
        'source_type',
        'documents',
      );
    }
  });

  it('needs PRO (403 plan_required) and a known source (404), in that order; 422 for a malformed id', async () => {
    const suffixes = analyticsRoutes.map((route) => route.path.split('/').at(-1)!);
    expect(suffixes).to.have.length(7);
    plan = 'FREE';
    try {
      for (const suffix of suffixes) {
        const refused = await call('GET', `/api/analytics/${sourceId}/${suffix}`);
        expect([refused.status, refused.body.code, refused.body.required_plan]).to.deep.equal([
          403,
          'plan_required',
          'PRO',
        ]);
        // An unknown id is refused by the plan first: the gate never reveals which ids exist.
        expect((await call('GET', `/api/analytics/00000000-0000-4000-8000-000000000000/${suffix}`)).status).to.equal(
          403,
        );
      }
    } finally {
      plan = 'PRO';
    }
    for (const suffix of suffixes) {
      const unknown = await call('GET', `/api/analytics/00000000-0000-4000-8000-000000000000/${suffix}`);
      expect([unknown.status, unknown.body.code]).to.deep.equal([404, 'not_found']);
    }
    expect((await call('GET', '/api/analytics/not-a-source/empty-metadata')).status).to.equal(422);
    expect((await fetch(`${server.url}/api/analytics/${sourceId}/empty-metadata`)).status, 'no token').to.equal(401);
  });
});
