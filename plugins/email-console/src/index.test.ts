import { expect } from 'chai';
import { providerTokens } from '@docqa/plugin-api';
import { describeEmailConformance, startTestKernel } from '@docqa/plugin-testkit';
import emailConsolePlugin, { consoleEmailLogMessage } from './index.js';

interface LogLine {
  plugin?: string;
  msg?: string;
  to?: string;
  subject?: string;
  text?: string;
}

/** The emails among the kernel's JSON log lines, as an operator reading the log would find them. */
function emailsInLog(logs: string[]): Array<{ to: string; subject: string; text: string }> {
  return logs
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.plugin === 'email-console' && line.msg === consoleEmailLogMessage)
    .map((line) => ({ to: String(line.to), subject: String(line.subject), text: String(line.text) }));
}

describeEmailConformance('email-console', {
  async start() {
    const logs: string[] = [];
    const kernel = await startTestKernel({
      plugins: [{ plugin: emailConsolePlugin }],
      env: { LOG_LEVEL: 'INFO' },
      logs,
    });
    return {
      provider: kernel.resolve(providerTokens.email),
      received: async () => emailsInLog(logs),
      dispose: () => kernel.dispose(),
    };
  },
});

describe('email-console', function () {
  it('refuses options, since it has none', async () => {
    const error = await startTestKernel({
      plugins: [{ plugin: emailConsolePlugin, options: { host: 'mail.example.com' } }],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'email-console'")
      .and.include('host');
  });
});
