import { sortRules, type MetadataRule, type RuleApplication } from '../../index.js';
import type { SqlExecutor } from '@docqa/plugin-api';

export type RuleOutcomeKind = 'won' | 'no_match' | 'shadowed' | 'failed';

/** What one rule did to one document: a row of metadata_rule_outcome. */
export interface RuleOutcome {
  ruleId: string;
  outcome: RuleOutcomeKind;
  selfChunks: number;
  inheritedChunks: number;
}

/**
 * Reads, from one applyRules result, what each rule did. applyRules stops evaluating a field once a
 * rule supplied it, so a rule after the winner in priority order never ran (shadowed) while one
 * before it ran without a match; sortRules is the order applyRules itself uses.
 */
export function ruleOutcomes(
  rules: readonly MetadataRule[],
  applied: RuleApplication,
  chunkCount: number,
): RuleOutcome[] {
  const failed = new Set(applied.failures.map((failure) => failure.ruleId));
  const winnerOf = new Map(applied.winners.map((winner) => [winner.field, winner.ruleId]));
  const decided = new Set<string>();
  return sortRules(rules).map((rule) => {
    const field = rule.field_name;
    if (winnerOf.get(field) === rule.id) {
      decided.add(field);
      // A document-level value is copied into every chunk, so every chunk carries it as its own.
      if (rule.level === 'document')
        return { ruleId: rule.id, outcome: 'won', selfChunks: chunkCount, inheritedChunks: 0 };
      let selfChunks = 0;
      let inheritedChunks = 0;
      for (const chunk of applied.chunks) {
        if (chunk.origin[field] === 'self') selfChunks++;
        else if (chunk.origin[field] === 'inherited') inheritedChunks++;
      }
      return { ruleId: rule.id, outcome: 'won', selfChunks, inheritedChunks };
    }
    const outcome: RuleOutcomeKind = failed.has(rule.id) ? 'failed' : decided.has(field) ? 'shadowed' : 'no_match';
    return { ruleId: rule.id, outcome, selfChunks: 0, inheritedChunks: 0 };
  });
}

/**
 * Replaces a document's outcomes, inside the transaction that writes its chunks or their metadata,
 * so outcomes and chunk metadata always describe the same indexing. Rows of a rule deleted since
 * the rules were read are left out instead of failing the whole indexing on the foreign key.
 */
export async function writeRuleOutcomes(
  tx: SqlExecutor,
  documentId: string,
  outcomes: readonly RuleOutcome[],
): Promise<void> {
  await tx.query('delete from metadata_rule_outcome where document_id = $1', [documentId]);
  if (outcomes.length === 0) return;
  await tx.query(
    `insert into metadata_rule_outcome (rule_id, document_id, outcome, self_chunks, inherited_chunks)
     select u.rule_id, $1, u.outcome, u.self_chunks, u.inherited_chunks
     from unnest($2::uuid[], $3::text[], $4::int[], $5::int[]) as u(rule_id, outcome, self_chunks, inherited_chunks)
     where exists (select 1 from metadata_rule r where r.id = u.rule_id)`,
    [
      documentId,
      outcomes.map((o) => o.ruleId),
      outcomes.map((o) => o.outcome),
      outcomes.map((o) => o.selfChunks),
      outcomes.map((o) => o.inheritedChunks),
    ],
  );
}
