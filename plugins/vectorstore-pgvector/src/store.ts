import {
  DocqaError,
  type Db,
  type EmbeddingSpace,
  type Logger,
  type VectorHit,
  type VectorQuery,
  type VectorRecord,
  type VectorStoreProvider,
} from '@docqa/plugin-api';
import type { PgvectorOptions } from './config.js';
import { dropHnswIndex, ensureHnswIndex, isIndexable } from './hnsw-index.js';
import { assertValidSpace, maxIndexedDimensions, spaceKey, toVectorLiteral } from './space.js';
import { nearestSql, upsertBatchSql } from './sql.js';
import { createStatisticsKeeper } from './statistics.js';

// pgvector's upper bound for hnsw.ef_search; deeper queries rely on iterative scans instead.
const maxEfSearch = 1000;

/**
 * The embedded database runs a statement on the server's own thread (the kernel lets the event
 * loop turn between statements), and inserting a 384-d vector into its HNSW graph takes about
 * 8 ms there: a statement of 256 vectors held the thread for two seconds while a local embedding
 * model, which needs it to start each next text (about 20 ms apart), waited, and so did HTTP
 * requests. With statements of a few vectors they take turns. Measured with bench:ingest (384-d,
 * 2 cores): the upsert alone kept its speed and its peak fell from 385 to 347 MB; the whole ingest
 * went from 0.67 to 0.72 of embedding alone at 6,295 chunks, but stayed at 0.56 at 20,831, where
 * the larger graph makes PGlite's share of the two cores larger (docs/operations.md).
 */
const embeddedRowsPerStatement = 4;

interface NearestRow {
  chunk_id: string;
  document_id: string;
  distance: number;
}

/** The vector store on the kernel's database: plain SQL, one table, one HNSW index per space. */
export function createPgvectorStore(db: Db, options: PgvectorOptions, logger: Logger): VectorStoreProvider {
  const warnedUnindexed = new Set<string>();
  const statistics = createStatisticsKeeper(db, logger);

  async function indexSpace(space: EmbeddingSpace): Promise<void> {
    if (!isIndexable(space)) {
      if (!warnedUnindexed.has(spaceKey(space))) {
        warnedUnindexed.add(spaceKey(space));
        logger.warn(
          { space: spaceKey(space) },
          `space ${spaceKey(space)} has more than ${maxIndexedDimensions} dimensions, ` +
            'which HNSW cannot index; its queries scan every vector',
        );
      }
      return;
    }
    try {
      const outcome = await ensureHnswIndex(db, space, options);
      if (outcome === 'created')
        logger.info({ space: spaceKey(space) }, 'created the HNSW index of a new embedding space');
    } catch (error) {
      // The vectors are stored and queries stay correct (exact, slower); the next upsert tries again.
      logger.error({ err: error, space: spaceKey(space) }, 'creating the HNSW index of an embedding space failed');
    }
  }

  return {
    capabilities: { approximate: true, documentFilter: true },

    async upsert(space, records) {
      assertValidSpace(space);
      const rows = latestPerChunk(space, records);
      if (rows.size === 0) return;
      const entries = [...rows.entries()];
      const rowsPerStatement =
        db.mode === 'embedded' ? Math.min(options.batchSize, embeddedRowsPerStatement) : options.batchSize;
      // All batches or none: a failed call leaves the space as it was.
      await db.transaction(async (tx) => {
        for (let start = 0; start < entries.length; start += rowsPerStatement) {
          const batch = entries.slice(start, start + rowsPerStatement);
          await tx.query(upsertBatchSql, [
            spaceKey(space),
            space.dimensions,
            batch.map(([chunkId]) => chunkId),
            batch.map(([, row]) => row.documentId),
            batch.map(([, row]) => row.vector),
          ]);
        }
      });
      // After the write, so the first batch of a space is indexed by one bulk build.
      await indexSpace(space);
      await statistics.noteChanges(entries.length);
    },

    async query(space, query) {
      assertValidSpace(space);
      const vector = toVectorLiteral(query.embedding, space, 'The query embedding');
      assertValidTopK(query);
      const documentIds = query.documentIds === undefined ? undefined : stringList(query.documentIds, 'documentIds');
      if (documentIds?.length === 0) return [];
      // HNSW returns at most ef_search rows per scan; a document filter or a deep query needs the
      // iterative scan to keep going, in roughly nearest-first order (hence the sort below).
      const efSearch = Math.min(maxEfSearch, Math.max(options.efSearch, query.topK));
      const iterative = documentIds !== undefined || query.topK > maxEfSearch;
      const params: unknown[] = [vector, spaceKey(space), query.topK];
      if (documentIds) params.push(documentIds);
      const rows = await db.transaction(async (tx) => {
        await tx.query(`select set_config('hnsw.ef_search', $1, true)`, [String(efSearch)]);
        if (iterative) await tx.query(`select set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
        return (await tx.query<NearestRow>(nearestSql(space.dimensions, documentIds !== undefined), params)).rows;
      });
      return rows.map(toHit).sort((a, b) => b.score - a.score);
    },

    async deleteDocuments(documentIds) {
      const ids = stringList(documentIds, 'documentIds');
      if (ids.length === 0) return 0;
      const result = await db.query('delete from vector_embedding where document_id = any($1::text[])', [ids]);
      await statistics.noteChanges(result.rowCount);
      return result.rowCount;
    },

    async count(space) {
      if (space === undefined) {
        const { rows } = await db.query<{ count: string }>('select count(*) as count from vector_embedding');
        return Number(rows[0]?.count ?? 0);
      }
      assertValidSpace(space);
      const { rows } = await db.query<{ count: string }>(
        'select count(*) as count from vector_embedding where space = $1',
        [spaceKey(space)],
      );
      return Number(rows[0]?.count ?? 0);
    },

    async spaces() {
      const { rows } = await db.query<{ space: string; dimensions: number; count: string }>(
        'select space, dimensions, count(*) as count from vector_embedding group by space, dimensions order by space',
      );
      return rows.map((row) => ({
        model: row.space.slice(0, row.space.length - `@${row.dimensions}`.length),
        dimensions: row.dimensions,
        count: Number(row.count),
      }));
    },

    async ping() {
      await db.query('select 1');
    },

    async dropSpace(space) {
      assertValidSpace(space);
      const deleted = await db.transaction(async (tx) => {
        const result = await tx.query('delete from vector_embedding where space = $1', [spaceKey(space)]);
        await dropHnswIndex(tx, space);
        return result.rowCount;
      });
      await statistics.noteChanges(deleted);
    },
  };
}

interface PreparedRow {
  documentId: string;
  vector: string;
}

/**
 * Validates every record before anything is written, and keeps the last record of a chunk listed
 * twice: one INSERT … ON CONFLICT cannot update the same row twice.
 */
function latestPerChunk(space: EmbeddingSpace, records: readonly VectorRecord[]): Map<string, PreparedRow> {
  if (!Array.isArray(records)) throw new DocqaError('validation_failed', 'upsert needs an array of vector records.');
  const rows = new Map<string, PreparedRow>();
  records.forEach((record, index) => {
    if (typeof record?.chunkId !== 'string' || record.chunkId.length === 0) {
      throw new DocqaError('validation_failed', `Vector record ${index} has no chunkId.`);
    }
    if (typeof record.documentId !== 'string' || record.documentId.length === 0) {
      throw new DocqaError(
        'validation_failed',
        `Vector record ${index} (chunk '${record.chunkId}') has no documentId.`,
      );
    }
    const vector = toVectorLiteral(record.embedding, space, `The embedding of chunk '${record.chunkId}'`);
    rows.set(record.chunkId, { documentId: record.documentId, vector });
  });
  return rows;
}

function assertValidTopK(query: VectorQuery): void {
  if (!Number.isInteger(query.topK) || query.topK < 1) {
    throw new DocqaError('validation_failed', `topK must be a positive integer, got ${String(query.topK)}.`);
  }
}

function stringList(values: readonly string[], name: string): string[] {
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
    throw new DocqaError('validation_failed', `${name} must be a list of strings.`);
  }
  return [...new Set(values)];
}

function toHit(row: NearestRow): VectorHit {
  // pgvector keeps cosine distance within [0, 2]; the clamp guards against rounding all the same.
  const score = Math.max(-1, Math.min(1, 1 - Number(row.distance)));
  return { chunkId: row.chunk_id, documentId: row.document_id, score };
}
