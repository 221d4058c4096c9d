import { applyRules, type MetadataRule } from '@docqa/core';
import type { JobContext } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import type { MetadataRefreshData, RulesService } from '@docqa/core/rules';
import { ruleOutcomes, writeRuleOutcomes } from '@docqa/core/analytics';

interface StoredChunk {
  id: string;
  text: string;
}

/**
 * Re-applies a source's rules to the chunks already indexed, without extracting again: the text is
 * the chunks joined as the pipeline joins blocks, so spans and the header scope stay close to the
 * original. New chunk_boundary rules change chunking only at the next indexing (a rebuild).
 */
export async function refreshMetadata(
  kernel: Kernel,
  rules: RulesService,
  job: JobContext<MetadataRefreshData>,
): Promise<{ documents: number }> {
  const ruleList = await rules.rulesOf(job.data.sourceId);
  const { rows: documents } = await kernel.db.query<{ id: string; filename: string; metadata: Record<string, string> }>(
    `select id, filename, metadata from document where source_id = $1 and status = 'indexed' order by created_at`,
    [job.data.sourceId],
  );
  await job.progress(0, documents.length);
  for (const [i, document] of documents.entries()) {
    job.signal.throwIfAborted();
    const { rows: chunks } = await kernel.db.query<StoredChunk>(
      'select id, text from chunk where document_id = $1 order by position',
      [document.id],
    );
    await refreshDocument(kernel, ruleList, rules, document, chunks);
    await job.progress(i + 1, documents.length);
  }
  return { documents: documents.length };
}

async function refreshDocument(
  kernel: Kernel,
  ruleList: MetadataRule[],
  rules: RulesService,
  document: { id: string; filename: string; metadata: Record<string, string> },
  chunks: StoredChunk[],
): Promise<void> {
  let offset = 0;
  const spans = chunks.map((chunk) => {
    const span = { start: offset, end: offset + chunk.text.length, text: chunk.text };
    offset = span.end + 2;
    return span;
  });
  const text = chunks.map((chunk) => chunk.text).join('\n\n');
  const applied = await applyRules(
    ruleList,
    { filename: document.filename, text, chunks: spans },
    { runner: rules.runner },
  );
  // Values of fields no rule produces any more are dropped; the extractor's own metadata stays.
  const ruleFields = new Set(ruleList.map((rule) => rule.field_name));
  const kept = Object.fromEntries(Object.entries(document.metadata).filter(([key]) => !ruleFields.has(key)));
  await kernel.db.transaction(async (tx) => {
    for (const [i, chunk] of chunks.entries()) {
      await tx.query('update chunk set metadata = $2::jsonb where id = $1', [
        chunk.id,
        JSON.stringify({ ...applied.document, ...(applied.chunks[i]?.values ?? {}) }),
      ]);
    }
    await tx.query('update document set metadata = $2::jsonb, updated_at = now() where id = $1', [
      document.id,
      JSON.stringify({ ...kept, ...applied.document }),
    ]);
    // What each rule did this time, for the analytics (spec 4.7), committed with the values it explains.
    await writeRuleOutcomes(tx, document.id, ruleOutcomes(ruleList, applied, chunks.length));
  });
}
