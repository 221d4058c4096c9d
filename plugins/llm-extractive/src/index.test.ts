import { expect } from 'chai';
import { providerTokens } from '@docqa/plugin-api';
import { describeLlmConformance, startTestKernel } from '@docqa/plugin-testkit';
import extractiveLlmPlugin from './index.js';

// Through a real kernel, so the suite also shows the plugin loads and registers as the LLM provider.
describeLlmConformance('llm-extractive', {
  async start() {
    const kernel = await startTestKernel({ plugins: [{ plugin: extractiveLlmPlugin }] });
    return { backend: kernel.resolve(providerTokens.llm), dispose: () => kernel.dispose() };
  },
});

describe('llm-extractive: plugin', () => {
  it('declares an LLM plugin that quotes rather than generates', async () => {
    expect(extractiveLlmPlugin.id).to.equal('llm-extractive');
    expect(extractiveLlmPlugin.kind).to.equal('llm');
    const options = extractiveLlmPlugin.configSchema.parse({});
    expect(options).to.deep.equal({
      maxSentences: 3,
      minMatchedTerms: 1,
      minScoreRatio: 0.3,
      minCoverage: 0.2,
      closestSourcesText: 'The closest sources:',
      noAnswerText: 'No indexed document answers this question.',
    });
  });

  it('refuses unknown and out-of-range options at start-up, naming the instance', async () => {
    const error = await startTestKernel({
      plugins: [{ plugin: extractiveLlmPlugin, options: { modelPath: '/models/x.gguf', maxSentences: 0 } }],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'llm-extractive'")
      .and.include('modelPath')
      .and.include('maxSentences');
  });
});
