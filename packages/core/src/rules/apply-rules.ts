import { translatePythonRegex, type TranslatedRegex } from './python-regex.js';
import { RuleRunner, type MatchOutcome } from './rule-runner.js';
import type { MetadataRule } from './rule-schema.js';
import type { FoundMatch } from './rule-worker.js';

export interface RuleTarget {
  filename: string;
  /** `documentText(document)`: match offsets and chunk spans are positions in it. */
  text: string;
  chunks: Array<{ start: number; end: number; text: string }>;
}

export interface ApplyRulesOptions {
  /** The 'header' scope is the first `headerChars` characters of the text. Default 2000. */
  headerChars?: number;
  /**
   * CPU time one rule may spend matching one text before it is reported as failed: this much, plus
   * `cpuMsPerMillionCharacters` for the text's length. Default: the runner's budget (50 ms).
   */
  timeBudgetMs?: number;
  /**
   * What the budget grows by per million characters matched, so a long document is not a hostile one.
   * Default: the runner's budget (200).
   */
  cpuMsPerMillionCharacters?: number;
  /** A runner to reuse across documents; without one, a temporary runner is started and closed. */
  runner?: RuleRunner;
}

export interface RuleFailure {
  ruleId: string;
  error: string;
}

export interface ChunkValues {
  values: Record<string, string>;
  origin: Record<string, 'self' | 'inherited'>;
}

export interface RuleApplication {
  document: Record<string, string>;
  chunks: ChunkValues[];
  /** Start offsets of every match of a chunk_boundary rule (full or header scope), sorted, unique. */
  boundaries: number[];
  /** Per field, the rule that supplied its values (for the rule-priority audit). */
  winners: Array<{ field: string; ruleId: string }>;
  failures: RuleFailure[];
}

/**
 * A rule's budget for one text. Ordinary patterns need 5–10 ms of CPU per million characters (a
 * Unicode word boundary, a case-insensitive class, a lazy `.*?`); the allowance leaves them 20 times
 * that, while a pattern that backtracks catastrophically needs more than any budget.
 */
export function ruleBudgetMs(
  textLength: number,
  options: Pick<ApplyRulesOptions, 'timeBudgetMs' | 'cpuMsPerMillionCharacters'> = {},
): number {
  const base = options.timeBudgetMs ?? 50;
  return Math.round(base + ((options.cpuMsPerMillionCharacters ?? 200) * textLength) / 1_000_000);
}

/** The options' budget where they give one, else the runner's (the server's settings). */
function budgetOf(
  runner: RuleRunner,
  text: string,
  options: Pick<ApplyRulesOptions, 'timeBudgetMs' | 'cpuMsPerMillionCharacters'>,
): number {
  return ruleBudgetMs(text.length, {
    timeBudgetMs: options.timeBudgetMs ?? runner.budget.baseMs,
    cpuMsPerMillionCharacters: options.cpuMsPerMillionCharacters ?? runner.budget.msPerMillionCharacters,
  });
}

type Matcher = (regex: TranslatedRegex, text: string, all: boolean) => Promise<MatchOutcome>;

const collator = new Intl.Collator('en', { numeric: true });

/** Higher priority first; equal priorities by id, so the order never depends on storage order. */
export function sortRules<T extends Pick<MetadataRule, 'id' | 'priority'>>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) => b.priority - a.priority || collator.compare(a.id, b.id));
}

/**
 * Applies metadata rules (spec 2.4) to one document at ingestion; `query_pattern` plays no part here.
 * For each field the first rule, by priority, with a match wins and alone supplies the field's values.
 * Document level: the first match. Chunk level: a chunk's own value is the first match starting
 * inside its span; a chunk without one inherits the value of the last match before it starts; chunks
 * before any match get nothing; with filename scope every chunk gets the value as its own. Each rule
 * runs in a worker within a CPU-time budget (`ruleBudgetMs`); a rule that fails or overruns is listed
 * in `failures` and the other rules still apply.
 */
export async function applyRules(
  rules: readonly MetadataRule[],
  target: RuleTarget,
  options: ApplyRulesOptions = {},
): Promise<RuleApplication> {
  return withRunner(options.runner, (runner) =>
    evaluateRules(rules, target, options.headerChars ?? 2000, (regex, text, all) =>
      runner.match({ source: regex.source, flags: regex.flags, text, all }, budgetOf(runner, text, options)),
    ),
  );
}

/**
 * Query-time classification: metadata filters from `query_pattern ?? pattern` matched against the
 * query, the first match per field by rule priority. `candidates` lists every distinct value the
 * rules found per field, in priority order: more than one means the query is ambiguous for that
 * field (a caller may ask a model to choose). Guarded by the same worker and time budget.
 */
export async function classifyQuery(
  rules: readonly MetadataRule[],
  query: string,
  options: Pick<ApplyRulesOptions, 'runner' | 'timeBudgetMs' | 'cpuMsPerMillionCharacters'> = {},
): Promise<{ filters: Record<string, string>; candidates: Record<string, string[]>; failures: RuleFailure[] }> {
  return withRunner(options.runner, async (runner) => {
    const candidates: Record<string, string[]> = {};
    const failures: RuleFailure[] = [];
    for (const rule of sortRules(rules)) {
      const outcome = await matchRule(rule, rule.query_pattern ?? rule.pattern, query, true, (regex, text, all) =>
        runner.match({ source: regex.source, flags: regex.flags, text, all }, budgetOf(runner, text, options)),
      );
      if ('error' in outcome) {
        failures.push({ ruleId: rule.id, error: outcome.error });
        continue;
      }
      for (const match of outcome.matches) {
        const values = (candidates[rule.field_name] ??= []);
        if (!values.includes(match.value)) values.push(match.value);
      }
    }
    const filters = Object.fromEntries(
      Object.entries(candidates).flatMap(([field, values]) => (values[0] === undefined ? [] : [[field, values[0]]])),
    );
    return { filters, candidates, failures };
  });
}

/**
 * What a document says of the rules that were skipped on it (its `error`, though it is indexed):
 * never dropped silently. Null when every rule ran.
 */
export function describeRuleFailures(
  rules: readonly Pick<MetadataRule, 'id' | 'field_name'>[],
  failures: readonly RuleFailure[],
): string | null {
  if (failures.length === 0) return null;
  const each = failures.map((failure) => {
    const field = rules.find((rule) => rule.id === failure.ruleId)?.field_name;
    return `metadata rule ${failure.ruleId}${field ? ` (field "${field}")` : ''} was skipped: ${failure.error}`;
  });
  return `Indexed, but ${each.join('; ')}. The other rules applied; see "Metadata rules" in docs/security.md.`;
}

async function withRunner<T>(given: RuleRunner | undefined, work: (runner: RuleRunner) => Promise<T>): Promise<T> {
  const runner = given ?? new RuleRunner();
  try {
    return await work(runner);
  } finally {
    if (!given) await runner.close();
  }
}

async function matchRule(
  rule: MetadataRule,
  pattern: string,
  text: string,
  all: boolean,
  matcher: Matcher,
): Promise<MatchOutcome> {
  let regex: TranslatedRegex;
  try {
    regex = translatePythonRegex(pattern);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return matcher(regex, text, all);
}

async function evaluateRules(
  rules: readonly MetadataRule[],
  target: RuleTarget,
  headerChars: number,
  matcher: Matcher,
): Promise<RuleApplication> {
  const result: RuleApplication = {
    document: {},
    chunks: target.chunks.map(() => ({ values: {}, origin: {} })),
    boundaries: [],
    winners: [],
    failures: [],
  };
  const wonFields = new Set<string>();
  const boundaries = new Set<number>();
  for (const rule of sortRules(rules)) {
    const marksBoundaries = rule.chunk_boundary && rule.scope !== 'filename';
    if (wonFields.has(rule.field_name) && !marksBoundaries) continue; // nothing left for it to decide
    const text =
      rule.scope === 'filename'
        ? target.filename
        : rule.scope === 'header'
          ? target.text.slice(0, headerChars)
          : target.text;
    const all = marksBoundaries || (rule.level === 'chunk' && rule.scope !== 'filename');
    const outcome = await matchRule(rule, rule.pattern, text, all, matcher);
    if ('error' in outcome) {
      result.failures.push({ ruleId: rule.id, error: outcome.error });
      continue;
    }
    if (marksBoundaries) for (const match of outcome.matches) boundaries.add(match.index);
    const [first] = outcome.matches;
    if (!first || wonFields.has(rule.field_name)) continue;
    wonFields.add(rule.field_name);
    result.winners.push({ field: rule.field_name, ruleId: rule.id });
    if (rule.level === 'document') result.document[rule.field_name] = first.value;
    else if (rule.scope === 'filename') assignEverywhere(result.chunks, rule.field_name, first.value);
    else assignByPosition(result.chunks, target.chunks, rule.field_name, outcome.matches);
  }
  result.boundaries = [...boundaries].sort((a, b) => a - b);
  return result;
}

function assignEverywhere(chunks: ChunkValues[], field: string, value: string): void {
  for (const chunk of chunks) {
    chunk.values[field] = value;
    chunk.origin[field] = 'self';
  }
}

/** Matches are in text order; each chunk takes its first own match, or inherits the last one before it. */
function assignByPosition(
  chunks: ChunkValues[],
  spans: RuleTarget['chunks'],
  field: string,
  matches: FoundMatch[],
): void {
  spans.forEach((span, index) => {
    const chunk = chunks[index];
    if (!chunk) return;
    const own = matches.find((match) => match.index >= span.start && match.index < span.end);
    const earlier = matches.filter((match) => match.index < span.start).at(-1);
    const value = own ?? earlier;
    if (!value) return;
    chunk.values[field] = value.value;
    chunk.origin[field] = own ? 'self' : 'inherited';
  });
}
