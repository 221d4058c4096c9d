import fs from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { readEnvironment } from '@docqa/kernel';
import { bytes, type ProgressTarget } from './progress.js';
import { runModels, storeFor } from './models.js';

export interface PullModelsIo {
  cwd: string;
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  /** Asks on the terminal; answers the typed line. */
  ask(question: string): Promise<string>;
  progress?: ProgressTarget;
  signal?: AbortSignal;
  retryDelayMs?: number;
}

/**
 * `docqa init`'s offer: pull the catalogue's recommended chat and embedding models, then name them
 * in `.env` (LLM_MODEL_PATH, EMBEDDING_MODEL_PATH) so the next start loads them. Variables that
 * are set already are left alone; `docqa models use` switches later without touching `.env`.
 */
export async function pullRecommendedModels(
  envFile: string,
  given: Partial<PullModelsIo> & Pick<PullModelsIo, 'cwd' | 'out'>,
  ask: boolean,
): Promise<number> {
  const io: PullModelsIo = {
    env: process.env,
    err: (line) => process.stderr.write(`${line}\n`),
    ask: askOnTerminal,
    progress: process.stderr,
    ...given,
  };
  const store = storeFor(io.env, io.cwd);
  const picks = (['chat', 'embedding'] as const).flatMap((purpose) =>
    store.catalogue.entries.filter((entry) => entry.purpose === purpose && entry.recommended).slice(0, 1),
  );
  if (picks.length === 0) return 0;
  if (ask) {
    const offer = picks
      .map(
        (entry) =>
          `${entry.name} (${entry.purpose}, ${entry.size ?? 'size unknown'}, ${entry.license ?? 'licence unknown'})`,
      )
      .join(' and ');
    const answer = await io.ask(
      `Download the recommended models now: ${offer}? Without a chat model answers quote passages. [y/N] `,
    );
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.out('No models downloaded. Later: docqa models list, docqa models pull <name>.');
      return 0;
    }
  }
  for (const entry of picks) {
    if (await store.find(entry.name)) {
      io.out(`${entry.name} is installed already.`);
      continue;
    }
    const code = await runModels(['pull', entry.name], io);
    if (code !== 0) return code;
  }
  // Name the models in .env for the next start, unless the environment or .env names others.
  const known = readEnvironment(io.env, io.cwd); // .env is the file in cwd
  const lines: string[] = [];
  for (const entry of picks) {
    const variable = entry.purpose === 'chat' ? 'LLM_MODEL_PATH' : 'EMBEDDING_MODEL_PATH';
    const model = await store.find(entry.name);
    if (!model) continue;
    if (known[variable]) {
      io.out(
        `${variable} is set already (${known[variable]}); left as it is. Switch with: docqa models use ${entry.name}`,
      );
      continue;
    }
    lines.push(`${variable}=${model.path}`);
    io.out(`${variable}=${model.path} (${bytes(model.gguf.sizeBytes)}) added to ${envFile}; the next start loads it.`);
  }
  if (lines.length > 0)
    fs.appendFileSync(
      envFile,
      [
        '',
        '# Added by `docqa init`: the recommended models. `docqa models use` switches at run time.',
        ...lines,
        '',
      ].join('\n'),
    );
  return 0;
}

async function askOnTerminal(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}
