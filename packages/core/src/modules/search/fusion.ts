export interface RankedHit {
  chunkId: string;
  score: number;
}

/** Reciprocal rank fusion constant, as in Cormack et al. (2009): damps the weight of the very top ranks. */
const rrfK = 60;

/** RRF: Σ 1 / (k + rank) over the lists a chunk appears in (rank from 1); ties broken by id for stable pages. */
export function reciprocalRankFusion(lists: RankedHit[][]): RankedHit[] {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((hit, index) => fused.set(hit.chunkId, (fused.get(hit.chunkId) ?? 0) + 1 / (rrfK + index + 1)));
  }
  return [...fused.entries()]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}
