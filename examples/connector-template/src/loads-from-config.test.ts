import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError, providerTokens } from '@docqa/plugin-api';
import { startTestKernel } from '@docqa/plugin-testkit';

/*
 * What an operator does to install the connector: name its package in docqa.config.json. These
 * tests start the real kernel that way. Only the first starts a whole kernel (database, jobs,
 * plugins, about 3 s); the failing ones stop at plugin validation, before the database opens.
 */
describe('connector-template loads from docqa.config.json', function () {
  let directory: string;

  beforeEach(function () {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-config-'));
  });

  afterEach(function () {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  /** Writes docqa.config.json with these plugin entries and returns its path. */
  function writeConfig(plugins: unknown[]): string {
    const file = path.join(directory, 'docqa.config.json');
    fs.writeFileSync(file, JSON.stringify({ plugins }, null, 2));
    return file;
  }

  async function startFailure(configFile: string): Promise<DocqaError> {
    const error = await startTestKernel({ env: { DOCQA_CONFIG_FILE: configFile } }).then(
      async (kernel) => {
        await kernel.dispose();
        return expect.fail('the kernel started although its plugin configuration is wrong');
      },
      (failure: unknown) => failure,
    );
    expect(DocqaError.is(error), String(error)).to.equal(true);
    return error as DocqaError;
  }

  it('registers a json-feed connector provider under the configured instance id, with its options', async function () {
    const configFile = writeConfig([
      { use: '@docqa/example-connector-template', instance: 'feeds', options: { maxDocuments: 5 } },
    ]);
    const kernel = await startTestKernel({ env: { DOCQA_CONFIG_FILE: configFile } });
    try {
      const provider = kernel.resolveAll(providerTokens.connector).find((candidate) => candidate.type === 'json-feed');
      expect(provider, 'a json-feed connector provider').to.not.equal(undefined);
      expect(kernel.plugins.instances).to.deep.include({
        instanceId: 'feeds',
        pluginId: 'connector-template',
        kind: 'connector',
      });

      // The options reached init(): a feed of six documents is over this instance's limit of five.
      const feed = path.join(directory, 'feed.jsonl');
      const lines = Array.from({ length: 6 }, (_, i) =>
        JSON.stringify({ id: `d${i}`, title: `T${i}`, body: `B${i}`, updated_at: `2025-01-0${i + 1}T00:00:00Z` }),
      );
      fs.writeFileSync(feed, lines.join('\n'));
      const source = await provider!.open(provider!.sourceConfigSchema.parse({ path: feed }), { sourceId: 'test' });
      const failure = await (async () => {
        for await (const _event of source.sync(null, new AbortController().signal));
      })().then(
        () => null,
        (error: unknown) => error,
      );
      expect((failure as Error | null)?.message)
        .to.contain('maxDocuments (5)')
        .and.contain("plugin instance 'feeds'");
    } finally {
      await kernel.dispose();
    }
  });

  it('refuses to start with invalid options, naming the plugin instance and the option', async function () {
    const configFile = writeConfig([
      { use: '@docqa/example-connector-template', instance: 'feeds', options: { maxDocuments: 0 } },
    ]);
    const error = await startFailure(configFile);
    expect(error.code).to.equal('plugin_invalid');
    expect(error.message).to.contain("plugin instance 'feeds'").and.contain('maxDocuments');
  });

  it('refuses to start when a configured module does not exist, naming it', async function () {
    const configFile = writeConfig([{ use: './does-not-exist.js' }]);
    const error = await startFailure(configFile);
    expect(error.code).to.equal('plugin_invalid');
    expect(error.message).to.contain('./does-not-exist.js');
  });
});
