import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError, providerTokens } from '@docqa/plugin-api';
import { startTestKernel } from '@docqa/plugin-testkit';
import { temporaryDirectory } from './s3rver-fixture.test.js';

/* What an operator does: name the package in docqa.config.json. One real kernel start (a few seconds). */
describe('integration-s3 loads from docqa.config.json', function () {
  let directory: string;

  beforeEach(function () {
    directory = temporaryDirectory('docqa-s3-config-');
  });

  afterEach(function () {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  function writeConfig(options: Record<string, unknown>): string {
    const file = path.join(directory, 'docqa.config.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ plugins: [{ use: '@docqa/plugin-integration-s3', instance: 's3', options }] }),
    );
    return file;
  }

  it('registers the s3 integration with its secret field', async function () {
    const kernel = await startTestKernel({
      env: { DOCQA_CONFIG_FILE: writeConfig({ stateDir: path.join(directory, 'state') }) },
    });
    try {
      const provider = kernel.resolveAll(providerTokens.connector).find((candidate) => candidate.type === 's3');
      expect(provider?.secretFields).to.deep.equal(['secret_access_key']);
      expect(provider?.sourceKind).to.equal('integration');
      expect(kernel.plugins.instances).to.deep.include({
        instanceId: 's3',
        pluginId: 'integration-s3',
        kind: 'connector',
      });
    } finally {
      await kernel.dispose();
    }
  });

  it('refuses a relative stateDir, naming the instance and the option', async function () {
    const error = await startTestKernel({ env: { DOCQA_CONFIG_FILE: writeConfig({ stateDir: 'state' }) } }).then(
      async (kernel) => {
        await kernel.dispose();
        return expect.fail('the kernel started with a relative stateDir');
      },
      (failure: unknown) => failure,
    );
    expect(DocqaError.is(error, 'plugin_invalid'), String(error)).to.equal(true);
    expect((error as Error).message)
      .to.contain("plugin instance 's3'")
      .and.contain('stateDir');
  });
});
