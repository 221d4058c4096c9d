import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { downloadUrl, loadCatalogue } from './catalogue.js';

describe('model catalogue', () => {
  it('ships chat, embedding (English and multilingual) and reranking models; unchecked checksums say so', () => {
    const catalogue = loadCatalogue();
    const chat = catalogue.entries.filter((entry) => entry.purpose === 'chat');
    const embedding = catalogue.entries.filter((entry) => entry.purpose === 'embedding');
    const reranking = catalogue.entries.filter((entry) => entry.purpose === 'reranking');
    expect(chat.map((entry) => entry.tier)).to.deep.equal(['small', 'medium']);
    expect(embedding.map((entry) => [entry.name, entry.dimensions])).to.deep.equal([
      ['bge-small-en-v1.5', 384],
      ['bge-base-en-v1.5', 768],
      ['multilingual-e5-small', 384],
    ]);
    expect(reranking.map((entry) => entry.name)).to.deep.equal(['bge-reranker-v2-m3']);
    // `docqa init` offers one recommended model of each purpose.
    for (const models of [chat, embedding, reranking])
      expect(models.filter((entry) => entry.recommended)).to.have.lengthOf(1);
    for (const entry of catalogue.entries) {
      // A checksum or size nobody could check is left out and listed as unverified, never made up.
      for (const field of ['sha256', 'size'] as const) {
        if (entry[field] === undefined) {
          expect(entry.verified, `${entry.name} lacks ${field}`).to.equal(false);
          expect(entry.unverified, `${entry.name} lacks ${field}`).to.include(field);
        }
      }
      if (entry.sha256 !== undefined) expect(entry.sha256, entry.name).to.match(/^[0-9a-f]{64}$/);
      for (const field of ['quantization', 'context_length', 'license', 'model_card', 'note'] as const)
        expect(entry[field], `${entry.name}.${field}`).to.not.equal(undefined);
      // Whatever was not confirmed on a public page says so.
      if (!entry.verified) expect(entry.unverified, entry.name).to.not.be.empty;
    }
  });

  it('maps hf: file URIs onto Hugging Face resolve URLs, pinned to the revision when one is given', () => {
    const qwen = loadCatalogue().find('qwen2.5-1.5b-instruct')!;
    expect(downloadUrl(qwen)).to.equal(
      'https://huggingface.co/bartowski/Qwen2.5-1.5B-Instruct-GGUF/resolve/85553858e3522ce5b531285b2202bdb40fab1624/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    );
    expect(downloadUrl({ name: 'x', source: 'hf:org/repo/sub/model.gguf' })).to.equal(
      'https://huggingface.co/org/repo/resolve/main/sub/model.gguf',
    );
    expect(downloadUrl({ name: 'x', source: 'http://127.0.0.1:9/model.gguf' })).to.equal(
      'http://127.0.0.1:9/model.gguf',
    );
    // The quantization-tag form needs a manifest lookup: a catalogue must name the file itself.
    expect(() => downloadUrl({ name: 'x', source: 'hf:org/repo:Q4_K_M' })).to.throw(DocqaError, 'Catalogue entry x');
  });

  it('refuses a broken catalogue with one message naming the file and each problem', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-catalogue-')), 'catalogue.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        models: [{ name: 'Bad Name', purpose: 'chat', source: 'hf:a/b/c.gguf', file: 'dir/c.gguf', sha256: 'xyz' }],
      }),
    );
    expect(() => loadCatalogue(file))
      .to.throw(DocqaError)
      .with.property('message')
      .that.includes(file)
      .and.includes('models.0.name')
      .and.includes('models.0.file')
      .and.includes('models.0.sha256');
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
