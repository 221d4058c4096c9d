import { expect } from 'chai';
import { defineModule } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { standardModules } from '../index.js';
import { modelsTokens, type CurrentModels } from '../models/contract.js';
import { rulesTokens, type RulesService } from '../rules/contract.js';
import { searchTokens, type SearchService } from '../search/contract.js';
import { feedbackReport } from './feedback-stats.js';

// The users' table as conversations reference it; in the product the identity migrations make it.
const usersStandIn = defineModule({
  id: 'test-users',
  deps: {},
  provides: {},
  migrations: [{ name: '0001_test_app_user', up: ['create table app_user (id uuid primary key)'] }],
  init: () => ({}),
});
const user = '5e0c4a4e-0000-4000-8000-0000000000a1';
const conversation = '5e0c4a4e-0000-4000-8000-0000000000c1';
const unused = {} as never;
/** The chat module, whose turns the report reads, composed as the product composes it. */
const chatModule = standardModules.find((module) => module.id === 'chat')!;

describe('analytics: the feedback report (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestModules({
      modules: [usersStandIn, chatModule],
      provide: [
        provide(searchTokens.service, unused as SearchService),
        provide(rulesTokens.service, unused as RulesService),
        provide(modelsTokens.current, { switchedChatBackend: () => null, embedder: () => null } as CurrentModels),
      ],
    });
    await kernel.db.query('insert into app_user (id) values ($1)', [user]);
    await kernel.db.query(`insert into conversation (id, user_id, title) values ($1, $2, 'q')`, [conversation, user]);
    // Positions 3..8 (the first two were trimmed away): rated today, 1 and 2 days ago, and 40 days ago.
    const turns: Array<[number, 'up' | 'down' | null, number | null]> = [
      [3, 'down', 40],
      [4, 'up', 2],
      [5, 'down', 1],
      [6, null, null],
      [7, 'up', 0],
      [8, 'down', 0],
    ];
    for (const [position, rating, daysAgo] of turns) {
      const sources = [{ index: 1, chunk_id: 'c', document_id: 'd1', title: 'Manual', path: 'manual.pdf', score: 1 }];
      await kernel.db.query(
        `insert into conversation_turn (id, conversation_id, position, query, answer, sources, retrieval_settings,
           timing, feedback_rating, feedback_comment, feedback_at)
         values (gen_random_uuid(), $1, $2, $3, $4, $5, '{}', '{}', $6, $7,
           case when $8::int is null then null else now() - make_interval(days => $8::int) end)`,
        [
          conversation,
          position,
          `question ${position}`,
          position === 8 ? 'a'.repeat(400) : `answer ${position}`,
          JSON.stringify(sources),
          rating,
          rating === 'down' ? `comment ${position}` : null,
          daysAgo,
        ],
      );
    }
  });
  after(() => kernel?.dispose());

  it('counts up and down per day with empty days listed, and lists the latest down-rated turns', async () => {
    const report = await feedbackReport(kernel.db, { period: 'day', days: 7, limit: 10 });
    expect(report.periods).to.have.length(8);
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    expect(report.periods.at(-1)).to.deep.equal({ start: day(0), up: 1, down: 1 });
    expect(report.periods.at(-2)).to.deep.equal({ start: day(1), up: 0, down: 1 });
    expect(report.periods.at(-3)).to.deep.equal({ start: day(2), up: 1, down: 0 });
    expect(report.totals).to.deep.equal({ up: 2, down: 2 });
    expect(report.latest_down.map((turn) => [turn.turn_index, turn.query, turn.comment])).to.deep.equal([
      [5, 'question 8', 'comment 8'],
      [2, 'question 5', 'comment 5'],
      [0, 'question 3', 'comment 3'],
    ]);
    expect(report.latest_down[0]?.answer_excerpt).to.equal(`${'a'.repeat(300)}…`);
    expect(report.latest_down[0]?.sources).to.deep.equal([
      { index: 1, document_id: 'd1', title: 'Manual', path: 'manual.pdf' },
    ]);
  });

  it('counts by month over a longer range and bounds the list', async () => {
    const report = await feedbackReport(kernel.db, { period: 'month', days: 60, limit: 1 });
    expect(report.totals).to.deep.equal({ up: 2, down: 3 });
    expect(report.periods.every((period) => period.start.endsWith('-01'))).to.equal(true);
    expect(report.latest_down).to.have.length(1);
  });
});
