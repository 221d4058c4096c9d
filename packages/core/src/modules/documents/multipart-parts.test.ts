import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { multipartParts } from './multipart-parts.js';

const limits = { files: 5, fields: 5, fieldSize: 1024 };
const boundary = 'docqa-test-boundary';

describe('multipart parts', () => {
  it('a body that ends inside a file, before its reader is attached, fails the loop and throws nothing uncaught', async () => {
    const body = new PassThrough();
    const parts = multipartParts({ stream: body, contentType: `multipart/form-data; boundary=${boundary}` }, limits);
    body.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\n${'x'.repeat(1000)}`,
    );
    const first = await parts.next();
    expect(first.value).to.include({ kind: 'file', filename: 'cut.txt' });
    // The body ends with no closing boundary while nobody listens to the file's stream yet: busboy
    // destroys that stream with "Unexpected end of form", which was an uncaught exception (CI, the
    // truncated upload of documents.test.ts on a busy machine).
    body.end();
    await nextTurn();
    await nextTurn();
    const error = await parts.next().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(DocqaError.is(error, 'bad_request'), String(error)).to.equal(true);
  });
});
