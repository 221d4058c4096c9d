import { expect } from 'chai';
import { DocqaError } from './errors.js';

describe('DocqaError', () => {
  it('recognises the errors of another copy of the plugin API by their brand', async () => {
    // A query string makes the module loader evaluate the file again: a second DocqaError class,
    // as a plugin bundling its own plugin API would have.
    const copy = (await import(`./errors.js?copy=${Date.now()}`)) as typeof import('./errors.js');
    expect(copy.DocqaError).to.not.equal(DocqaError);
    const foreign = new copy.DocqaError('not_found', 'No such document.');
    expect(foreign instanceof DocqaError).to.equal(true);
    expect(DocqaError.is(foreign, 'not_found')).to.equal(true);
    expect(DocqaError.is(foreign, 'conflict')).to.equal(false);
    expect(new DocqaError('conflict', 'Taken.') instanceof copy.DocqaError).to.equal(true);
  });

  it('does not take other errors or look-alikes for one', () => {
    expect(new Error('plain') instanceof DocqaError).to.equal(false);
    expect(DocqaError.is({ code: 'not_found', status: 404, message: 'shaped like one' })).to.equal(false);
    expect(DocqaError.is(null)).to.equal(false);
    expect(DocqaError.is('not_found')).to.equal(false);
  });
});
