import { expect } from 'chai';
import { startTestKernel } from '../testing/test-kernel.js';

/**
 * RAG_LOG_ANONYMISE and RAG_LOG_REDACT_QUERIES (spec 8.2, seeds): from the variable at first start
 * to the log lines, and changed at run time through the stored setting.
 */
describe('log privacy variables', function () {
  this.timeout(120_000);

  it('RAG_LOG_ANONYMISE and RAG_LOG_REDACT_QUERIES set what the log shows of users and queries', async () => {
    const logs: string[] = [];
    const kernel = await startTestKernel({
      logs,
      env: { RAG_LOG_ANONYMISE: 'false', RAG_LOG_REDACT_QUERIES: 'false' },
    });
    try {
      const probe = () => {
        logs.length = 0;
        kernel.logger.warn({ username: 'alice', query: 'what is the merger plan' }, 'privacy probe');
        const line = logs.find((entry) => entry.includes('privacy probe'));
        expect(line, 'the probe was logged').to.be.a('string');
        return JSON.parse(line!) as { username: unknown; query: unknown };
      };
      expect(probe()).to.include({ username: 'alice', query: 'what is the merger plan' });
      await kernel.settings.set({ RAG_LOG_ANONYMISE: true, RAG_LOG_REDACT_QUERIES: true }, 'test');
      const hidden = probe();
      expect(hidden.username).to.be.a('string').and.not.equal('alice');
      expect(JSON.stringify(hidden)).to.not.include('merger');
    } finally {
      await kernel.dispose();
    }
  });
});
