import { expect } from 'chai';
import { parseRule, validateRule } from './rule-schema.js';

const valid = { field_name: 'article', pattern: 'Article (\\d+)', scope: 'full', level: 'chunk' };

describe('validateRule', () => {
  it('accepts a valid rule and applies defaults', () => {
    expect(validateRule(valid)).to.deep.equal([]);
    expect(parseRule(valid)).to.include({ chunk_boundary: false, priority: 0 });
  });

  it('names each field with a problem', () => {
    const problems = validateRule({
      field_name: 'Bad Name',
      pattern: '(a)(b)',
      query_pattern: '(?>x)',
      scope: 'body',
      level: 'page',
      chunk_boundary: 'yes',
      priority: 1.5,
    });
    const fields = problems.map((problem) => problem.field).sort();
    expect(fields).to.deep.equal([
      'chunk_boundary',
      'field_name',
      'level',
      'pattern',
      'priority',
      'query_pattern',
      'scope',
    ]);
    expect(problems.find((p) => p.field === 'pattern')?.message).to.match(/exactly one capture group; found 2/);
    expect(problems.find((p) => p.field === 'query_pattern')?.message).to.match(/Atomic/);
  });

  it('reports missing fields, out-of-range priority and uncompilable patterns', () => {
    expect(
      validateRule({})
        .map((p) => p.field)
        .sort(),
    ).to.deep.equal(['field_name', 'level', 'pattern', 'scope']);
    expect(validateRule({ ...valid, priority: 1001 }).map((p) => p.field)).to.deep.equal(['priority']);
    expect(validateRule({ ...valid, pattern: '(unclosed' })[0]?.message).to.match(/does not compile/);
    expect(validateRule({ ...valid, query_pattern: null })).to.deep.equal([]);
  });

  it('throws a 422 DocqaError listing the problems from parseRule', () => {
    expect(() => parseRule({ ...valid, scope: 'x' }))
      .to.throw('The metadata rule is invalid.')
      .with.property('status', 422);
  });
});
