import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { downloadUrl, loadCatalogue } from './catalogue.js';

describe('model catalogue', () => {
  it('ships a small and a medium chat model and two embedding models of 384 to 768 dimensions, each with a checksum', () => {
    const catalogue = loadCatalogue();
    const chat = catalogue.entries.filter((entry) => entry.purpose === 'chat');
    const embedding = catalogue.entries.filter((entry) => entry.purpose === 'embedding');
    expect(chat.map((entry) => entry.tier)).to.deep.equal(['small', 'medium']);
    expect(embedding.map((entry) => entry.dimensions)).to.deep.equal([384, 768]);
    // `docqa init` offers one recommended model of each purpose.
    expect(chat.filter((entry) => entry.recommended)).to.have.lengthOf(1);
    expect(embedding.filter((entry) => entry.recommended)).to.have.lengthOf(1);
    for (const entry of catalogue.entries) {
      expect(entry.sha256, entry.name).to.match(/^[0-9a-f]{64}$/);
      for (const field of ['quantization', 'context_length', 'license', 'size', 'model_card', 'note'] as const)
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
