import { expect } from 'chai';
import { countCaptureGroups, translatePythonRegex } from './python-regex.js';

const compile = (pattern: string) => {
  const { source, flags } = translatePythonRegex(pattern);
  return new RegExp(source, flags);
};

describe('translatePythonRegex', () => {
  it('turns named groups and named backreferences into JavaScript syntax', () => {
    const regex = compile('(?P<word>\\w+) (?P=word)');
    expect(regex.exec('hello hello')?.groups?.word).to.equal('hello');
    expect(regex.test('hello world')).to.equal(false);
  });

  it('maps leading inline flags to JavaScript flags', () => {
    expect(translatePythonRegex('(?i)abc').flags).to.equal('iu');
    expect(translatePythonRegex('(?im)(?s)x').flags).to.equal('imsu');
    expect(compile('(?i)ABC').test('xabcx')).to.equal(true);
    expect(compile('(?s)a.b').test('a\nb')).to.equal(true);
    expect(compile('a.b').test('a\nb')).to.equal(false);
    expect(compile('(?m)^b$').test('a\nb\nc')).to.equal(true);
    expect(compile('^b$').test('a\nb\nc')).to.equal(false);
  });

  it('strips whitespace and comments in verbose mode, except inside classes and when escaped', () => {
    const regex = compile('(?x) (\\d+)  # the number\n [ ]? \\# ');
    expect(regex.exec('42 #')?.[1]).to.equal('42');
  });

  it('translates \\A and \\Z, and keeps Python meaning of $ before a final newline', () => {
    expect(compile('\\Aab').test('xab')).to.equal(false);
    expect(compile('ab\\Z').test('ab\n')).to.equal(false);
    expect(compile('ab$').test('ab\n')).to.equal(true);
  });

  it('matches Unicode letters with \\w and digits with \\d as Python does', () => {
    expect(compile('(\\w+)').exec('Société')?.[1]).to.equal('Société');
    expect(compile('(?a)(\\w+)').exec('Société')?.[1]).to.equal('Soci');
    expect(compile('\\bété\\b').test('un été chaud')).to.equal(true);
  });

  it('accepts Python literals that JavaScript u-mode rejects', () => {
    expect(compile('a{b}').test('a{b}')).to.equal(true);
    expect(compile('x{,2}y').test('xxy')).to.equal(true);
    expect(compile('[]a]').test(']')).to.equal(true);
    expect(compile('\\-\\"').test('-"')).to.equal(true);
  });

  it('refuses constructs JavaScript cannot express the same way, with a clear message', () => {
    const refusals: Array<[string, RegExp]> = [
      ['a++', /Possessive/],
      ['(?>a)', /Atomic/],
      ['(a)?(?(1)b|c)', /Conditional/],
      ['a(?i)b', /Inline flags/],
      ['(?i:a)', /scoped flags/],
      ['\\L', /\\L is not supported/],
      ['(?L)a', /locale/],
      ['[\\W]', /\\W inside a character class/],
      ['(?<name>a)', /\(\?P<name>/],
      ['(a', /does not compile/],
      ['\\2(a)', /Invalid group reference/],
    ];
    for (const [pattern, message] of refusals) {
      expect(() => translatePythonRegex(pattern), pattern).to.throw(message);
    }
  });
});

describe('countCaptureGroups', () => {
  it('counts plain and named groups only', () => {
    expect(countCaptureGroups('(a)(?P<b>b)')).to.equal(2);
    expect(countCaptureGroups('\\((?:x)(?=y)(?!z)(?<=w)(?<!v)[(]')).to.equal(0);
    expect(countCaptureGroups('(?x) ( a )  # (not a group)')).to.equal(1);
  });
});
