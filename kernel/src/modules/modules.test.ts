import { expect } from 'chai';
import { z } from 'zod';
import {
  createToken,
  defineModule,
  definePlugin,
  DocqaError,
  optional,
  providerTokens,
  tokens,
  type AnyModule,
  type EmailProvider,
} from '@docqa/plugin-api';
import { planModules } from './plan.js';
import { applicationMigrationsOf } from '../kernel.js';
import { provide, startTestKernel, startTestModules } from '../testing/test-kernel.js';

interface Greeter {
  greet(name: string): string;
}
interface Counter {
  next(): Promise<number>;
}
const greeterToken = createToken<Greeter>('test.greeter');
const counterToken = createToken<Counter>('test.counter');

const events: string[] = [];

const greeterModule = defineModule({
  id: 'greeter',
  deps: { logger: tokens.logger },
  provides: { greeter: greeterToken },
  init: () => {
    events.push('init greeter');
    return { greeter: { greet: (name: string) => `hello ${name}` } };
  },
  onStart: () => void events.push('start greeter'),
  onWorkerStart: () => void events.push('worker start greeter'),
});

// Depends on the greeter and on the database; listed first, so the order is the planner's doing.
const counterModule = defineModule({
  id: 'counter',
  deps: { db: tokens.db, greeter: greeterToken, jobs: tokens.jobs },
  provides: { counter: counterToken },
  migrations: [
    {
      name: '9001_test_counter',
      up: ['create table test_counter (n int not null)', 'insert into test_counter values (0)'],
    },
  ],
  queues: { 'test-counter': { retryLimit: 0 } },
  init: ({ deps, onStop }) => {
    events.push(`init counter (${deps.greeter.greet('counter')})`);
    onStop(() => void events.push('stop counter'));
    return {
      counter: {
        next: async () =>
          (await deps.db.query<{ n: number }>('update test_counter set n = n + 1 returning n')).rows[0]!.n,
      },
    };
  },
  onStart: async ({ provided }) => void events.push(`start counter at ${await provided.counter.next()}`),
});

const plan = (modules: AnyModule[]) => planModules(modules, []);

describe('modules: the schema', () => {
  const tableModule = (id: string, name: string, deps = {}) =>
    defineModule({ id, deps, provides: {}, migrations: [{ name, up: [] }], init: () => ({}) });

  it('applies migrations in the order of their names, whichever module holds them', () => {
    // `documents` depends on `sources`, yet its table (0004) must exist before the sources' 0007 alters it.
    const sources = tableModule('sources', '0007_sources');
    const documents = tableModule('documents', '0004_documents', { greeter: greeterToken });
    const own = [{ name: '0001_identity', up: [] }];
    const order = applicationMigrationsOf(own, [sources, documents]).map((migration) => migration.name);
    expect(order).to.deep.equal(['0001_identity', '0004_documents', '0007_sources']);
  });

  it('refuses two migrations of one name before anything starts', () => {
    const first = tableModule('first', '0030_same');
    const second = tableModule('second', '0030_same');
    expect(() => applicationMigrationsOf([], [first, second])).to.throw(/repeated: 0030_same/);
  });
});

describe('modules: the plan', () => {
  it('orders modules after those they depend on', () => {
    expect(plan([counterModule, greeterModule]).plan.map((module) => module.id)).to.deep.equal(['greeter', 'counter']);
  });

  it('reports every missing dependency at once, each naming its module', () => {
    const needsEmail = defineModule({
      id: 'mailer',
      deps: { email: providerTokens.email },
      provides: {},
      init: () => ({}),
    });
    const { plan: planned, problems } = plan([counterModule, needsEmail]);
    expect(planned).to.deep.equal([]);
    expect(problems).to.deep.equal([
      "module 'counter': dependency 'greeter' asks for 'test.greeter', which neither the kernel, a plugin kind nor any module provides",
      "module 'mailer': dependency 'email' needs a email plugin, and none is configured",
    ]);
  });

  it('names a cycle, a token provided twice and an id used twice', () => {
    const a = createToken<object>('test.a');
    const b = createToken<object>('test.b');
    const first = defineModule({ id: 'first', deps: { b }, provides: { a }, init: () => ({ a: {} }) });
    const second = defineModule({ id: 'second', deps: { a }, provides: { b }, init: () => ({ b: {} }) });
    expect(plan([first, second]).problems).to.deep.equal(["module dependency cycle: 'first' → 'second' → 'first'"]);
    const again = defineModule({
      id: 'first',
      deps: {},
      provides: { a, db: tokens.db },
      init: () => ({ a: {}, db: {} as never }),
    });
    expect(plan([first, again]).problems).to.deep.equal([
      "module 'first': defined twice; a module id is unique",
      "module 'first': provides 'test.a', which module 'first' provides already",
      "module 'first': provides 'core.db', which the kernel provides already",
      "module 'first': dependency 'b' asks for 'test.b', which neither the kernel, a plugin kind nor any module provides",
    ]);
  });
});

describe('modules: in a running kernel', function () {
  it('migrates, declares queues, starts in dependency order, runs hooks by role, stops in reverse', async () => {
    events.length = 0;
    const kernel = await startTestKernel({ modules: [counterModule, greeterModule] });
    try {
      expect(events).to.deep.equal([
        'init greeter',
        'init counter (hello counter)',
        'start greeter',
        'start counter at 1',
        'worker start greeter',
      ]);
      expect(await kernel.resolve(counterToken).next()).to.equal(2);
      expect(kernel.modules.ids).to.deep.equal(['greeter', 'counter']);
      await kernel.jobs.send('test-counter', { n: 1 });
    } finally {
      await kernel.dispose();
    }
    expect(events.at(-1)).to.equal('stop counter');
  });

  it('an api process runs no onWorkerStart', async () => {
    events.length = 0;
    const kernel = await startTestKernel({
      modules: [greeterModule],
      env: { DOCQA_ROLE: 'api', DATABASE_URL: process.env.TEST_DATABASE_URL ?? '' },
    }).catch((error: unknown) => error);
    // The api role needs a PostgreSQL server; on the embedded database the start refuses it.
    if (kernel instanceof Error) return expect(DocqaError.is(kernel, 'config_invalid')).to.equal(true);
    try {
      expect(events).to.deep.equal(['init greeter', 'start greeter']);
    } finally {
      await (kernel as Awaited<ReturnType<typeof startTestKernel>>).dispose();
    }
  });

  it('startTestModules puts stand-ins in place of the modules a test leaves out', async () => {
    const kernel = await startTestModules({
      modules: [counterModule],
      provide: [provide(greeterToken, { greet: (name) => `hi ${name}` })],
    });
    try {
      expect(kernel.modules.ids).to.deep.equal(['test-provided', 'counter']);
      expect(events).to.include('init counter (hi counter)');
    } finally {
      await kernel.dispose();
    }
  });

  it('an optional dependency nothing provides is undefined; one a module provides orders and resolves', async () => {
    const seen: Record<string, unknown> = {};
    const watcher = defineModule({
      id: 'watcher',
      deps: { gate: optional(providerTokens.licenseGate), greeter: optional(greeterToken) },
      provides: {},
      init: ({ deps }) => {
        seen.gate = deps.gate;
        seen.greeting = deps.greeter?.greet('watcher');
        return {};
      },
    });
    expect(plan([watcher]).problems).to.deep.equal([]);
    expect(plan([watcher, greeterModule]).plan.map((module) => module.id)).to.deep.equal(['greeter', 'watcher']);
    const kernel = await startTestKernel({ modules: [watcher, greeterModule] });
    try {
      expect(seen).to.deep.equal({ gate: undefined, greeting: 'hello watcher' });
    } finally {
      await kernel.dispose();
    }
  });

  it("an edition's preset adds its own modules and leaves out the ones it names", async () => {
    const edition = defineModule({
      id: 'edition-pack',
      deps: { greeter: greeterToken },
      provides: {},
      init: () => ({}),
    });
    const kernel = await startTestKernel({
      modules: [greeterModule, counterModule],
      edition: { modules: () => [edition], withoutModules: ['counter'] },
    });
    try {
      expect(kernel.modules.ids).to.deep.equal(['greeter', 'edition-pack']);
    } finally {
      await kernel.dispose();
    }
    const unknown = await startTestKernel({ modules: [greeterModule], edition: { withoutModules: ['nowhere'] } }).catch(
      (error: unknown) => error,
    );
    expect((unknown as Error).message).to.include("preset test leaves out module 'nowhere', which is not loaded");
  });

  it('a module that fails to start stops the others and names itself', async () => {
    const email = definePlugin({
      apiVersion: 1,
      kind: 'email',
      id: 'email-null',
      configSchema: z.object({}),
      deps: {},
      init: (): EmailProvider => ({ send: async () => undefined }),
    });
    const broken = defineModule({
      id: 'broken',
      deps: { email: providerTokens.email },
      provides: { greeter: greeterToken },
      init: () => ({}) as never,
    });
    const error = await startTestKernel({ plugins: [{ plugin: email }], modules: [broken] }).catch(
      (caught: unknown) => caught,
    );
    expect(DocqaError.is(error, 'module_failed')).to.equal(true);
    expect((error as Error).message).to.equal(
      "Module error: module 'broken' failed to start: its init returned no 'greeter', which it declares it provides",
    );
  });
});
