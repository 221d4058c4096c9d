import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { ArchiveWriter, readArchive, type ArchiveRecord } from './archive-format.js';
import { DataFileRestore, isCarried, writeDataFiles } from './data-files.js';

async function collect(file: string): Promise<ArchiveRecord[]> {
  const records: ArchiveRecord[] = [];
  for await (const record of readArchive(file)) records.push(record);
  return records;
}

async function refusal(file: string): Promise<string> {
  try {
    await collect(file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the archive was accepted');
}

describe('transfer archive format', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-archive-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const header = {
    format: 'docqa-archive',
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    docqa_version: '0.1.0',
    source: { database: 'embedded', server_version: '17' },
    migrations: ['m1'],
    tables: [],
    sequences: [],
  };

  async function writeSample(file: string): Promise<void> {
    const writer = new ArchiveWriter(file);
    await writer.line(header);
    await writer.line({ table: 't' });
    await writer.line(['1', null, '{"a": 1}', '\\x00ff', 'tab\there\nnewline']);
    await writer.line({ table_end: 't', rows: 1 });
    await writer.finish({ tables: 1, rows: 1, files: 0, file_bytes: 0 });
  }

  it('reads back what it wrote, values exactly, and checks the trailer', async () => {
    const file = path.join(dir, 'a.docqa');
    await writeSample(file);
    const records = await collect(file);
    expect(records.map((record) => record.kind)).to.deep.equal(['header', 'table', 'row', 'table_end', 'end']);
    expect(records[2]).to.deep.equal({ kind: 'row', values: ['1', null, '{"a": 1}', '\\x00ff', 'tab\there\nnewline'] });
  });

  it('refuses a cut-off file, a changed line, data after the end, a newer format and a non-archive', async () => {
    const file = path.join(dir, 'a.docqa');
    await writeSample(file);
    const bytes = fs.readFileSync(file);
    const lines = zlib.gunzipSync(bytes).toString('utf8').split('\n');

    fs.writeFileSync(path.join(dir, 'cut.docqa'), bytes.subarray(0, bytes.length - 10));
    expect(await refusal(path.join(dir, 'cut.docqa'))).to.match(/damaged or incomplete/);

    fs.writeFileSync(path.join(dir, 'no-trailer.docqa'), zlib.gzipSync(lines.slice(0, 4).join('\n') + '\n'));
    expect(await refusal(path.join(dir, 'no-trailer.docqa'))).to.match(/ends before its trailer/);

    const changed = [...lines];
    changed[2] = changed[2]!.replace('"1"', '"2"');
    fs.writeFileSync(path.join(dir, 'changed.docqa'), zlib.gzipSync(changed.join('\n')));
    expect(await refusal(path.join(dir, 'changed.docqa'))).to.match(/checksum does not match/);

    fs.writeFileSync(path.join(dir, 'after.docqa'), zlib.gzipSync(lines.join('\n') + '["extra"]\n'));
    expect(await refusal(path.join(dir, 'after.docqa'))).to.match(/data after its end/);

    const newer = [JSON.stringify({ ...header, version: 99 }), ...lines.slice(1)];
    fs.writeFileSync(path.join(dir, 'newer.docqa'), zlib.gzipSync(newer.join('\n')));
    expect(await refusal(path.join(dir, 'newer.docqa'))).to.match(/format version 99/);

    fs.writeFileSync(path.join(dir, 'plain.txt'), 'not gzip at all');
    expect(await refusal(path.join(dir, 'plain.txt'))).to.match(/damaged or incomplete/);
  });

  it('carries data files but not the embedded database, unfinished writes or models when told', () => {
    expect(isCarried('blobs/sha256/ab/abc', { withoutModels: false })).to.equal(true);
    expect(isCarried('sources/git/x/.git/HEAD', { withoutModels: false })).to.equal(true);
    expect(isCarried('pgdata/base/1', { withoutModels: false })).to.equal(false);
    expect(isCarried('blobs/tmp/123', { withoutModels: false })).to.equal(false);
    expect(isCarried('models/a.gguf.part', { withoutModels: false })).to.equal(false);
    expect(isCarried('sources/s3/state.json.123.ab.tmp', { withoutModels: false })).to.equal(false);
    expect(isCarried('models/a.gguf', { withoutModels: false })).to.equal(true);
    expect(isCarried('models/a.gguf', { withoutModels: true })).to.equal(false);
  });

  it('restores files through a staging directory, keeps identical ones, reports different ones, and refuses paths outside', async () => {
    const source = path.join(dir, 'source');
    fs.mkdirSync(path.join(source, 'blobs/sha256/ab'), { recursive: true });
    fs.writeFileSync(path.join(source, 'blobs/sha256/ab/abc'), Buffer.alloc(200_000, 7));
    fs.writeFileSync(path.join(source, 'state.json'), '{"cursor": 3}');
    const file = path.join(dir, 'files.docqa');
    const writer = new ArchiveWriter(file);
    await writer.line(header);
    const totals = await writeDataFiles(writer, source, { withoutModels: false });
    await writer.finish({ tables: 0, rows: 0, files: totals.files, file_bytes: totals.bytes });
    expect(totals).to.deep.equal({ files: 2, bytes: 200_000 + 13 });

    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'state.json'), '{"cursor": 9}');
    const restore = new DataFileRestore(target);
    for await (const record of readArchive(file)) {
      if (record.kind === 'dir') await restore.dir(record.path, record.mode);
      if (record.kind === 'file') await restore.startFile(record.path, record.size, record.mode);
      if (record.kind === 'file_data') await restore.data(record.bytes);
      if (record.kind === 'file_end') await restore.endFile(record.path, record.sha256);
    }
    expect(await restore.conflicts()).to.deep.equal(['state.json']);
    fs.writeFileSync(path.join(target, 'state.json'), '{"cursor": 3}');
    expect(await restore.conflicts()).to.deep.equal([]);
    await restore.place();
    await restore.cleanUp();
    expect(fs.readFileSync(path.join(target, 'blobs/sha256/ab/abc')).equals(Buffer.alloc(200_000, 7))).to.equal(true);
    expect(fs.readdirSync(target).sort()).to.deep.equal(['blobs', 'state.json']);

    const hostile = new DataFileRestore(target);
    for (const name of ['../escape', '/etc/passwd', 'a/../../b']) {
      const error = await hostile.startFile(name, 1, 0o644).then(
        () => null,
        (caught: Error) => caught,
      );
      expect(error?.message, name).to.match(/outside the data directory/);
    }
    await hostile.cleanUp();
  });
});
