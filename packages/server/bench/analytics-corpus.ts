/**
 * The synthetic source of bench:analytics, bulk-loaded in SQL: documents of 5 to 15 chunks (10 on
 * average), chunk texts of 200 to 2,400 characters cut from a pool of random words (so they compress
 * like prose, not like a repeated string), chunk metadata in the shapes the rules produce (document
 * values on every chunk, chunk values from the first match on, some chunks without any), and one
 * outcome row per document and rule, as indexing writes them.
 */
import type { Db } from '@docqa/plugin-api';

/** Documents per INSERT statement: each statement writes about 10 times as many chunks. */
const documentsPerStatement = 1000;

/** A small deterministic generator (mulberry32), so every run loads the same corpus. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About 12,000 characters of words from a 2,000-word vocabulary; chunks are slices of it. */
function wordPool(random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 2000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * 26)]).join(''),
  );
  const words: string[] = [];
  for (let length = 0; length < 12_000;) {
    const word = vocabulary[Math.floor(random() * vocabulary.length)]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** Chunk counts per document summing to exactly `chunks`: 5, 6, …, 15, 5, … and the rest last. */
export function chunkCounts(chunks: number): number[] {
  const counts: number[] = [];
  let total = 0;
  while (total < chunks) {
    const next = Math.min(5 + (counts.length % 11), chunks - total);
    counts.push(next);
    total += next;
  }
  return counts;
}

export async function loadCorpus(
  db: Db,
  sourceId: string,
  chunks: number,
): Promise<{ documents: number; chunks: number }> {
  const pool = wordPool(seeded(20_260_101));
  const counts = chunkCounts(chunks);
  for (let first = 0; first < counts.length; first += documentsPerStatement) {
    const part = counts.slice(first, first + documentsPerStatement);
    // Document i: 4 in 5 have a document-level `dept`; the path carries i for the chunk statement.
    await db.query(
      `insert into document (id, source_type, source_id, path, filename, media_type, size_bytes, content_hash, status, chunk_count, metadata, indexed_at)
       select gen_random_uuid(), 'integration', $1, 'doc-' || i, 'doc-' || i || '.txt', 'text/plain', n * 1300, md5(i::text), 'indexed', n,
         case when i % 5 <> 0 then jsonb_build_object('dept', 'dept-' || (i % 7)) else '{}'::jsonb end, now()
       from unnest($2::int[]) with ordinality as u(n, k), lateral (select $3::int + k::int - 1 as i) ix`,
      [sourceId, part, first],
    );
    // Chunk p of document i: `part` from the second chunk on in 9 documents of 10; `section` on 3
    // chunks in 4, the rest of them inheriting it; no metadata at all where neither applies and the
    // document has no dept (about 3 % of chunks).
    await db.query(
      `insert into chunk (id, document_id, position, text, kind, char_start, char_end, token_count, metadata)
       select gen_random_uuid(), d.id, p, substr($1, (1 + h % 9000)::int, len), 'text', 0, len, len / 5,
         jsonb_strip_nulls(jsonb_build_object(
           'dept', d.metadata ->> 'dept',
           'part', case when p > 0 and i % 10 <> 3 then p::text end,
           'section', case when p > 0 and (i + p) % 4 <> 0 then (1 + p / 3)::text end))
       from document d
       cross join lateral (select substr(d.path, 5)::int as i) ix
       cross join lateral generate_series(0, d.chunk_count - 1) as p
       cross join lateral (select abs(hashtext(d.path || ':' || p)::bigint) as h) hx
       cross join lateral (select (200 + h % 2201)::int as len) lx
       where d.source_id = $2 and substr(d.path, 5)::int between $3 and $4`,
      [pool, sourceId, first, first + part.length - 1],
    );
  }
  // One outcome per document and rule: winners about half the time, as indexing records them.
  await db.query(
    `insert into metadata_rule_outcome (rule_id, document_id, outcome, self_chunks, inherited_chunks)
     select r.id, d.id, o.outcome,
       case when o.outcome <> 'won' then 0 when r.level = 'document' then d.chunk_count else d.chunk_count / 2 end,
       case when o.outcome = 'won' and r.level = 'chunk' then d.chunk_count / 3 else 0 end
     from document d cross join metadata_rule r
     cross join lateral (select case abs(hashtext(d.path || r.id::text)::bigint) % 50 when 0 then 'failed' else (array['won', 'won', 'won', 'won', 'won', 'no_match', 'no_match', 'no_match', 'shadowed', 'shadowed'])[(1 + abs(hashtext(r.id::text || d.path)::bigint) % 10)::int] end as outcome) o
     where d.source_id = $1 and r.source_id::text = $1`,
    [sourceId],
  );
  return { documents: counts.length, chunks };
}
