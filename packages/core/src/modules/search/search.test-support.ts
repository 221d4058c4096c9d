import crypto from 'node:crypto';
import { defineModule, type SqlExecutor } from '@docqa/plugin-api';
import { analyseChunks, writePostings } from './contract.js';

// The documents' tables as search reads them; in the product the documents' migrations make them.
export const documentsStandIn = defineModule({
  id: 'test-documents',
  deps: {},
  provides: {},
  migrations: [
    {
      name: '0005_test_documents',
      up: [
        `create table document (id uuid primary key, path text not null, filename text not null,
          status text not null, title text null, metadata jsonb not null default '{}',
          chunk_count integer not null default 0, source_type text not null default 'upload', source_id text null,
          media_type text not null default 'text/plain')`,
        // With the columns of a chunk's location, which every search item carries.
        `create table chunk (id uuid primary key, document_id uuid not null references document (id) on delete cascade,
          position integer not null, text text not null, metadata jsonb not null default '{}',
          heading_path text[] not null default '{}', page_start integer null, page_end integer null,
          row_start integer null, row_end integer null, char_start integer not null default 0,
          char_end integer not null default 0)`,
      ],
    },
  ],
  init: () => ({}),
});

/** A document as indexing writes it: its chunks, their postings, then its status. */
export async function insertDocument(
  db: SqlExecutor,
  name: string,
  texts: string[],
  options: { status?: string; metadata?: Record<string, string>; source?: { type: string; id: string } } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `insert into document (id, path, filename, status, title, metadata, source_type, source_id)
     values ($1, $2, $2, 'indexing', $2, $3, $4, $5)`,
    [id, name, JSON.stringify(options.metadata ?? {}), options.source?.type ?? 'upload', options.source?.id ?? null],
  );
  const chunks = analyseChunks(texts.map((text) => ({ id: crypto.randomUUID(), text })));
  for (const [position, chunk] of chunks.entries()) {
    await db.query(
      'insert into chunk (id, document_id, position, text, term_count, language) values ($1, $2, $3, $4, $5, $6)',
      [chunk.id, id, position, texts[position], chunk.length, chunk.language],
    );
  }
  await writePostings(db, id, chunks);
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  await db.query('update document set term_count = $2, chunk_count = $3, status = $4 where id = $1', [
    id,
    length,
    chunks.length,
    options.status ?? 'indexed',
  ]);
  return id;
}
