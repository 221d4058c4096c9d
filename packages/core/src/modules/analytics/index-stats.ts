import { SqlParams, type Db } from '@docqa/plugin-api';
import {
  aggregateQuery,
  histogramSql,
  presentHistogram,
  presentSummary,
  ratio,
  scopedDocuments,
  summarySql,
  type RawSummary,
  type SourceScope,
} from './scope.js';
import type { ChunkSizeDistribution, ChunksPerDocument, EmptyMetadata } from './schemas.js';

/*
 * The analytics read from the index itself: chunk lengths, chunk counts and the metadata stored on
 * chunks. Each is a single SQL statement; no chunk leaves the database.
 */

/**
 * Character edges of the chunk-size histogram: fine below 200 (fragments RAG_MIN_CHUNK_LENGTH should
 * have merged), then around a chunk's target (256 tokens ≈ 1,200 characters) and its cap (twice that).
 */
export const chunkSizeEdges = [0, 50, 100, 200, 400, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 5000] as const;

/** Chunks-per-document edges: 0 is a document whose text made no chunk. */
export const chunksPerDocumentEdges = [0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000] as const;

const sampleLimit = 10;

export async function chunkSizeDistribution(
  db: Db,
  scope: SourceScope,
  minChunkLength: number,
): Promise<ChunkSizeDistribution> {
  const params = new SqlParams();
  const docs = scopedDocuments(scope, params, 'd.id');
  // One pass over the lengths: summary, histogram and the short ones together.
  const row = await aggregateQuery<{ documents: number; summary: RawSummary; histogram: number[]; below: number }>(
    db,
    `with docs as materialized (${docs})
     select (select count(*)::int from docs) as documents, ${summarySql} as summary,
       ${histogramSql(chunkSizeEdges)} as histogram,
       count(*) filter (where n < ${params.add(minChunkLength)})::int as below
     from (select c.text_length as n from chunk c join docs on docs.id = c.document_id) sizes`,
    params.values,
  );
  return {
    ...source(scope),
    documents: row.documents,
    unit: 'characters',
    summary: presentSummary(row.summary),
    histogram: presentHistogram(chunkSizeEdges, row.histogram),
    min_chunk_length: minChunkLength,
    below_min_chunk_length: row.below,
  };
}

/** From document.chunk_count, written in the transaction that writes the chunks: no chunk row is read. */
export async function chunksPerDocument(db: Db, scope: SourceScope): Promise<ChunksPerDocument> {
  const params = new SqlParams();
  const docs = scopedDocuments(scope, params, 'd.id, d.path, d.status, d.chunk_count as n', { anyStatus: true });
  const row = await aggregateQuery<{
    documents: number;
    not_indexed: number;
    summary: RawSummary;
    histogram: number[];
    largest: ChunksPerDocument['largest'];
  }>(
    db,
    `with all_docs as materialized (${docs})
     select count(*)::int as documents, (select count(*)::int from all_docs where status <> 'indexed') as not_indexed,
       ${summarySql} as summary, ${histogramSql(chunksPerDocumentEdges)} as histogram,
       (select coalesce(json_agg(json_build_object('document_id', id, 'path', path, 'chunks', n)
         order by n desc, path, id), '[]')
        from (select id, path, n from all_docs where status = 'indexed' order by n desc, path, id
          limit ${sampleLimit}) top) as largest
     from all_docs where status = 'indexed'`,
    params.values,
  );
  return {
    ...source(scope),
    documents: row.documents,
    documents_not_indexed: row.not_indexed,
    summary: presentSummary(row.summary),
    histogram: presentHistogram(chunksPerDocumentEdges, row.histogram),
    largest: row.largest,
  };
}

/**
 * Chunks whose metadata is empty: no rule gave them a value of their own, an inherited one or their
 * document's. The partial index chunk_empty_metadata holds exactly those chunks, so the cost follows
 * how many there are, not how large the source is.
 */
export async function emptyMetadata(db: Db, scope: SourceScope): Promise<EmptyMetadata> {
  const params = new SqlParams();
  const docs = scopedDocuments(scope, params, 'd.id, d.path, d.chunk_count');
  const row = await aggregateQuery<Omit<EmptyMetadata, 'source_id' | 'source_type' | 'empty_ratio'>>(
    db,
    `with docs as materialized (${docs}),
     per_doc as materialized (select c.document_id, count(*)::int as empty from chunk c join docs
       on docs.id = c.document_id where c.metadata = '{}'::jsonb group by 1)
     select (select count(*)::int from docs) as documents, (select coalesce(sum(chunk_count), 0)::int
       from docs) as chunks,
       (select coalesce(sum(empty), 0)::int from per_doc) as empty_chunks, (select count(*)::int
         from per_doc) as documents_with_empty_chunks,
       (select count(*)::int from per_doc p join docs on docs.id = p.document_id
         where p.empty >= docs.chunk_count) as documents_all_empty,
       (select coalesce(json_agg(json_build_object('document_id', id, 'path', path, 'empty_chunks', empty,
         'chunks', chunk_count) order by empty desc, path, id), '[]')
        from (select docs.id, docs.path, p.empty, docs.chunk_count from per_doc p join docs on docs.id = p.document_id
          order by p.empty desc, docs.path, docs.id limit ${sampleLimit}) s) as samples`,
    params.values,
  );
  return { ...source(scope), ...row, empty_ratio: ratio(row.empty_chunks, row.chunks) };
}

function source(scope: SourceScope) {
  return { source_id: scope.sourceId, source_type: scope.sourceType };
}
