import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from './logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, destination };
}

describe('logger', () => {
  it('anonymises user identifiers and redacts queries, consistently and at run time', () => {
    const { lines, destination } = capture();
    const logger = createLogger({
      level: 'INFO',
      privacy: { anonymiseUsers: true, redactQueries: true },
      hashKey: 'k'.repeat(32),
      destination,
    });
    const child = logger.child({ component: 'chat' });
    child.info({ user_id: 'alice', query: 'what is our salary policy?' }, 'chat query');
    child.info({ user_id: 'alice' }, 'again');
    child.info({ user_id: 'bob' }, 'someone else');
    logger.setPrivacy({ anonymiseUsers: false, redactQueries: false });
    child.info({ user_id: 'alice', query: 'visible now' }, 'plain');

    expect(lines[0]?.user_id).to.match(/^anon_[0-9a-f]{12}$/);
    expect(lines[0]?.query).to.equal('[redacted 26 chars]');
    expect(lines[1]?.user_id, 'same user, same token').to.equal(lines[0]?.user_id);
    expect(lines[2]?.user_id).to.not.equal(lines[0]?.user_id);
    expect(lines[3]).to.deep.include({ user_id: 'alice', query: 'visible now', component: 'chat' });
    expect(JSON.stringify(lines.slice(0, 3)))
      .to.not.include('alice')
      .and.not.include('salary');
  });

  it('applies a level change to loggers made before it', () => {
    const { lines, destination } = capture();
    const logger = createLogger({
      level: 'WARNING',
      privacy: { anonymiseUsers: false, redactQueries: false },
      hashKey: 'k',
      destination,
    });
    const child = logger.child({ component: 'jobs' });
    child.info('hidden');
    child.warn('shown');
    logger.setLevel('DEBUG');
    child.debug('now shown');
    logger.setLevel('ERROR');
    child.warn('hidden again');
    expect(lines.map((line) => [line.level, line.msg])).to.deep.equal([
      ['warn', 'shown'],
      ['debug', 'now shown'],
    ]);
  });

  it('never writes passwords or tokens', () => {
    const { lines, destination } = capture();
    const logger = createLogger({
      level: 'INFO',
      privacy: { anonymiseUsers: false, redactQueries: false },
      hashKey: 'k',
      destination,
    });
    logger.info({ password: 'hunter2', req: { headers: { authorization: 'Bearer abc' } } }, 'login');
    expect(JSON.stringify(lines)).to.not.include('hunter2').and.not.include('Bearer abc');
  });
});
