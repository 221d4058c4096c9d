import { expect } from 'chai';
import { applyRules, classifyQuery, describeRuleFailures, ruleBudgetMs } from './apply-rules.js';
import { RuleRunner } from './rule-runner.js';
import type { MetadataRule } from './rule-schema.js';

let nextId = 1;
const rule = (fields: Partial<MetadataRule> & Pick<MetadataRule, 'field_name' | 'pattern'>): MetadataRule => ({
  id: String(nextId++),
  scope: 'full',
  level: 'document',
  chunk_boundary: false,
  priority: 0,
  query_pattern: null,
  ...fields,
});

const text =
  'Contract 2024-17\n\nArticle 1. Scope of the contract.\n\nMore about scope.\n\nArticle 2. Payment terms apply.';
const spanOf = (part: string) => ({ start: text.indexOf(part), end: text.indexOf(part) + part.length, text: part });
const chunks = [
  spanOf('Contract 2024-17'),
  spanOf('Article 1. Scope of the contract.'),
  spanOf('More about scope.'),
  spanOf('Article 2. Payment terms apply.'),
];
const target = { filename: 'acme-2024.pdf', text, chunks };

describe('applyRules', () => {
  let runner: RuleRunner;
  before(() => {
    runner = new RuleRunner();
  });
  after(async () => {
    await runner.close();
  });

  it('scope full, header and filename search the text, its beginning and the file name', async () => {
    const result = await applyRules(
      [
        rule({ field_name: 'contract', pattern: 'Contract (\\S+)' }),
        rule({ field_name: 'late_article', pattern: 'Article (2)', scope: 'header' }),
        rule({ field_name: 'year', pattern: '(\\d{4})\\.pdf$', scope: 'filename' }),
      ],
      target,
      { runner, headerChars: 40 },
    );
    expect(result.document).to.deep.equal({ contract: '2024-17', year: '2024' });
  });

  it('level document keeps the first match; level chunk gives each chunk its own match or inherits', async () => {
    const result = await applyRules(
      [rule({ field_name: 'article', pattern: 'Article (\\d+)', level: 'chunk' })],
      target,
      { runner },
    );
    expect(result.document).to.deep.equal({});
    expect(result.chunks).to.deep.equal([
      { values: {}, origin: {} },
      { values: { article: '1' }, origin: { article: 'self' } },
      { values: { article: '1' }, origin: { article: 'inherited' } },
      { values: { article: '2' }, origin: { article: 'self' } },
    ]);
  });

  it('gives every chunk the value of a chunk-level filename rule as its own', async () => {
    const result = await applyRules(
      [rule({ field_name: 'client', pattern: '^(\\w+)-', scope: 'filename', level: 'chunk' })],
      target,
      { runner },
    );
    expect(result.chunks.every((c) => c.values.client === 'acme' && c.origin.client === 'self')).to.equal(true);
  });

  it('lets the highest-priority matching rule win a field and records it', async () => {
    const low = rule({ field_name: 'kind', pattern: '(Contract)', priority: 1 });
    const high = rule({ field_name: 'kind', pattern: '(Payment)', priority: 5 });
    const silent = rule({ field_name: 'kind', pattern: '(Invoice)', priority: 9 });
    const result = await applyRules([low, high, silent], target, { runner });
    expect(result.document.kind).to.equal('Payment');
    expect(result.winners).to.deep.equal([{ field: 'kind', ruleId: high.id }]);
  });

  it('reports the offsets of chunk_boundary matches', async () => {
    const result = await applyRules(
      [rule({ field_name: 'article', pattern: 'Article (\\d+)', chunk_boundary: true })],
      target,
      { runner },
    );
    expect(result.boundaries).to.deep.equal([text.indexOf('Article 1'), text.indexOf('Article 2')]);
  });

  it('ignores query_pattern at ingestion and uses it in classifyQuery', async () => {
    const byQuery = rule({
      field_name: 'article',
      pattern: 'Article (\\d+)',
      query_pattern: '(?i)art(?:icle)?\\.? ?(\\d+)',
    });
    const plain = rule({ field_name: 'contract', pattern: 'Contract (\\S+)' });
    const ingested = await applyRules([byQuery], { ...target, text: 'art 9 and Article 3' }, { runner });
    expect(ingested.document.article).to.equal('3');
    const classified = await classifyQuery([byQuery, plain], 'what does art. 4 of Contract X-1 say?', { runner });
    expect(classified).to.deep.equal({
      filters: { article: '4', contract: 'X-1' },
      candidates: { article: ['4'], contract: ['X-1'] },
      failures: [],
    });
  });

  it('lists every value a query names for a field, best rule first, so ambiguity can be resolved', async () => {
    const high = rule({ field_name: 'contract', pattern: 'Contract (\\S+)', priority: 10 });
    const low = rule({ field_name: 'contract', pattern: 'agreement (\\S+)', priority: 1 });
    const classified = await classifyQuery(
      [low, high],
      'does Contract A-1 or Contract B-2 override agreement C-3 or Contract A-1 again?',
      { runner },
    );
    expect(classified.filters).to.deep.equal({ contract: 'A-1' });
    expect(classified.candidates).to.deep.equal({ contract: ['A-1', 'B-2', 'C-3'] });
  });

  it('reports a catastrophic pattern as over its CPU budget while the other rules still apply', async () => {
    const evil = rule({ field_name: 'evil', pattern: '(a+)+$' });
    const good = rule({ field_name: 'word', pattern: '(b+)' });
    const result = await applyRules(
      [evil, good],
      { filename: 'x', text: `${'a'.repeat(40)}!bbb`, chunks: [] },
      { runner, timeBudgetMs: 50 },
    );
    expect(result.failures).to.deep.equal([{ ruleId: evil.id, error: 'its pattern used more than 50 ms of CPU time' }]);
    expect(result.document).to.deep.equal({ word: 'bbb' });
    const after = await applyRules([good], target, { runner });
    expect(after.failures).to.deep.equal([]);
  });

  it('applies harmless rules while the event loop is too busy to look at a clock for 120 ms at a time', async () => {
    // What CPU load does to the server: the reply of the matching worker waits behind other work.
    // A wall-clock budget ran out meanwhile and dropped the rules; the worker's CPU time did not grow.
    const rules = [
      rule({ field_name: 'contract', pattern: 'Contract (\\S+)' }),
      rule({ field_name: 'article', pattern: '\\bArticle (\\d+)', level: 'chunk' }),
    ];
    let busy = true;
    const hog = () => {
      const until = performance.now() + 120;
      while (performance.now() < until);
      if (busy) setImmediate(hog);
    };
    setImmediate(hog);
    try {
      for (let i = 0; i < 5; i++) {
        const result = await applyRules(rules, target, { runner });
        expect(result.failures).to.deep.equal([]);
        expect(result.document.contract).to.equal('2024-17');
        expect(result.chunks[3]?.values.article).to.equal('2');
      }
    } finally {
      busy = false;
    }
  });

  it('gives a long text a budget that grows with its length', () => {
    expect(ruleBudgetMs(40)).to.equal(50);
    expect(ruleBudgetMs(20_000_000)).to.equal(4050);
    expect(ruleBudgetMs(1_000_000, { timeBudgetMs: 10, cpuMsPerMillionCharacters: 5 })).to.equal(15);
  });

  it('describes skipped rules for the document, naming each and its field', () => {
    expect(describeRuleFailures([], [])).to.equal(null);
    expect(
      describeRuleFailures(
        [rule({ id: 'r1', field_name: 'noise', pattern: '(a+)+$' })],
        [{ ruleId: 'r1', error: 'its pattern used more than 50 ms of CPU time' }],
      ),
    ).to.equal(
      'Indexed, but metadata rule r1 (field "noise") was skipped: its pattern used more than 50 ms of CPU time. ' +
        'The other rules applied; see "Metadata rules" in docs/security.md.',
    );
  });

  it('reports an invalid stored pattern as a failure and works without a given runner', async () => {
    const broken = rule({ field_name: 'x', pattern: '(?>a)' });
    const result = await applyRules([broken, rule({ field_name: 'contract', pattern: 'Contract (\\S+)' })], target);
    expect(result.failures[0]?.error).to.match(/Atomic/);
    expect(result.document.contract).to.equal('2024-17');
  });
});
