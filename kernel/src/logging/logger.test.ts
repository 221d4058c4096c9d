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

  it("writes a flat line writer's lines byte for byte as pino writes the same fields and message", () => {
    const written: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString().replace(/"time":"[^"]+"/, '"time":"…"'));
        callback();
      },
    });
    const logger = createLogger({
      level: 'INFO',
      privacy: { anonymiseUsers: false, redactQueries: false },
      hashKey: 'k'.repeat(32),
      destination,
    });
    const fieldSets = [
      { request_id: 'r1', method: 'GET', path: '/api/version', status: 200, duration_ms: 0.1, user_id: undefined },
      { request_id: 'r2', method: 'POST', path: '/a"b\\c/é\u2028\ud800', status: 499, duration_ms: 12, user_id: 'u' },
      { request_id: 'r3', method: 'GET', path: '/x', status: 500, duration_ms: 1.5, user_id: 'u', aborted: true },
      { token: 'abc', password: 'hunter2', secret: 's', query: 'what is it', user_id: 'alice', n: Number.NaN },
    ];
    const both = () => {
      const lines: Array<[string, string]> = [];
      for (const level of ['debug', 'info', 'error'] as const) {
        const writer = logger.flatLineWriter(level, 'request');
        for (const fields of fieldSets) {
          written.length = 0;
          logger[level](fields, 'request');
          writer(fields);
          lines.push([written[0] ?? 'nothing', written[1] ?? 'nothing']);
        }
      }
      return lines;
    };
    const plain = both();
    logger.setPrivacy({ anonymiseUsers: true, redactQueries: true });
    const private_ = both();
    logger.setLevel('DEBUG');
    const debug = both();
    for (const [pino, flat] of [...plain, ...private_, ...debug]) expect(flat).to.equal(pino);
    expect(plain.filter(([pino]) => pino === 'nothing')).to.have.length(4, 'debug lines under INFO');
    expect(debug.filter(([pino]) => pino === 'nothing')).to.have.length(0);
    expect(private_.map(([pino]) => pino).join())
      .to.include('anon_')
      .and.include('[redacted 10 chars]');
    expect(plain.map(([pino]) => pino).join())
      .to.include('"token":"[redacted]"')
      .and.not.include('hunter2');
  });
});
