import fs from 'node:fs';
import { expect } from 'chai';
import { renderConfigurationReference } from './reference.js';

describe('configuration reference', () => {
  it('docs/configuration.md lists exactly the variables the loader validates', () => {
    const file = fs.readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const generated = /<!-- BEGIN GENERATED: docqa config reference -->\n([\s\S]*)<!-- END GENERATED -->/.exec(
      file,
    )?.[1];
    expect(generated, 'regenerate with: npm run docqa -- config reference').to.equal(renderConfigurationReference());
  });
});
