import { variables, type VariableSpec } from './variables.js';

const groupTitles: Record<string, string> = {
  process: 'Process',
  logging: 'Logging',
  http: 'HTTP',
  auth: 'Authentication',
  proxy: 'Reverse proxy and TLS',
  database: 'Database, cache and vector store',
  jobs: 'Jobs and retention',
  ingestion: 'Ingestion',
  llm: 'Models and chat',
  email: 'Email',
  license: 'License',
};

function shownDefault(spec: VariableSpec<unknown>): string {
  if (spec.required) return 'required';
  if (spec.default === undefined) return '—';
  if (typeof spec.default === 'function') return 'derived (see meaning)';
  return spec.default === '' ? '(empty)' : `\`${spec.default}\``;
}

/** docs/configuration.md's tables, from the table the loader validates with (a test keeps them equal). */
export function renderConfigurationReference(): string {
  const groups = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(variables)) {
    const spec = raw as VariableSpec<unknown>;
    const notes = [spec.seed ? 'seed' : '', spec.secret ? `secret \`${spec.secret}\`` : ''].filter(Boolean).join(', ');
    const row = `| \`${name}\` | ${shownDefault(spec)} | ${notes} | ${spec.description} |`;
    groups.set(spec.group, [...(groups.get(spec.group) ?? []), row]);
  }
  const sections = [...groups.entries()].map(
    ([group, rows]) =>
      `### ${groupTitles[group] ?? group}\n\n` +
      `| Variable | Default | Notes | Meaning |\n|---|---|---|---|\n${rows.join('\n')}\n`,
  );
  return sections.join('\n');
}
