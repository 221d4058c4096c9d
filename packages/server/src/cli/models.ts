import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DocqaError } from '@docqa/plugin-api';
import { readEnvironment } from '@docqa/kernel';
import { downloadUrl, ModelStore, modelPaths } from '@docqa/core/models';
import { bytes, progressBar, type ProgressTarget } from './progress.js';

export const modelsUsage = `Usage: docqa models <command>

  list                       the catalogue, what is installed in MODELS_DIR, and (with the
                             credentials below) the models the running service uses
  pull NAME                  download a catalogue model into MODELS_DIR; resumes an interrupted
                             download, checks size and SHA-256, installs only a verified file
  import FILE [--name NAME] [--link] [--force]
                             add a local .gguf (air-gapped installs); --link hard-links instead
                             of copying when FILE is on the same file system
  rm NAME                    delete an installed model (and a partial download of it)
  use NAME [--reembed]       switch the running service to an installed model, without a restart;
                             --reembed re-indexes every document after an embedding model switch
  use --reset chat|embedding return to the configured model (LLM_MODEL_PATH, EMBEDDING_MODEL_PATH)

  use (and list, rm when given credentials) talk to the running service over HTTP:
    DOCQA_URL       its address (default http://HOST:PORT from the configuration)
    DOCQA_TOKEN     an admin access token, or
    DOCQA_USERNAME and DOCQA_PASSWORD of an admin account (without TOTP)
`;

export interface ModelsCliIo {
  cwd: string;
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  /** Where the progress bar draws (stderr); it draws only when this is a terminal. */
  progress?: ProgressTarget;
  /** Aborts a pull (Ctrl-C in the command). */
  signal?: AbortSignal;
  /** Tests: seconds between retries of a dropped download. */
  retryDelayMs?: number;
}

/** `docqa models …`: manage the GGUF models of this installation. */
export async function runModels(argv: string[], io: ModelsCliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(modelsUsage);
    return command ? 0 : 2;
  }
  try {
    switch (command) {
      case 'list':
        return await list(io);
      case 'pull':
        return await pull(rest, io);
      case 'import':
        return await importModel(rest, io);
      case 'rm':
        return await remove(rest, io);
      case 'use':
        return await use(rest, io);
    }
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`docqa models ${command}: ${(error as Error).message}`);
      return 2;
    }
    if (DocqaError.is(error)) {
      io.err(`docqa models ${command}: ${error.message}`);
      return error.code === 'bad_request' ? 2 : 1;
    }
    throw error;
  }
  io.err(`Unknown models command: ${command}\n${modelsUsage}`);
  return 2;
}

/**
 * The store as a server started here would see it: DOCQA_DATA_DIR, MODELS_DIR and MODELS_CATALOGUE
 * from the environment and .env. Only those: managing models needs none of the secrets.
 */
export function storeFor(processEnv: Record<string, string | undefined>, cwd: string): ModelStore {
  const env = readEnvironment(processEnv, cwd);
  const dataDir = path.resolve(cwd, env.DOCQA_DATA_DIR || './data');
  return new ModelStore(modelPaths((name) => env[name] || undefined, dataDir, cwd));
}

const storeOf = (io: ModelsCliIo) => storeFor(io.env, io.cwd);

async function list(io: ModelsCliIo): Promise<number> {
  const store = storeOf(io);
  const installed = await store.list();
  const files = new Set(installed.map((model) => model.gguf.file));
  io.out(`Catalogue (${store.catalogue.path}):`);
  for (const entry of store.catalogue.entries) {
    const marks = [
      files.has(entry.file) ? 'installed' : '',
      entry.recommended ? 'recommended' : '',
      entry.verified ? '' : 'not fully verified',
    ]
      .filter(Boolean)
      .join(', ');
    io.out(
      `  ${entry.name.padEnd(24)} ${entry.purpose.padEnd(9)} ${(entry.size ?? '?').padEnd(8)} ` +
        `${(entry.quantization ?? '').padEnd(7)} ${(entry.license ?? '?').padEnd(11)} ${marks}`,
    );
  }
  io.out(`Installed in ${store.dir}:`);
  if (installed.length === 0) io.out('  (none)');
  for (const model of installed)
    io.out(
      `  ${model.name.padEnd(24)} ${model.purpose.padEnd(9)} ` +
        `${bytes(model.gguf.sizeBytes).padEnd(8)} ${model.gguf.file}`,
    );
  const api = apiOf(io, false);
  if (api) {
    const body = (await api.call('GET', '/api/models')) as {
      active: Record<string, { name: string; source: string } | null>;
      index: { stale: boolean; embedded_chunks: number; chunks: number };
    };
    io.out('In use by the running service:');
    for (const purpose of ['chat', 'embedding']) {
      const active = body.active[purpose];
      const chosenBy = active?.source === 'switched' ? 'docqa models use' : 'configuration';
      io.out(`  ${purpose.padEnd(9)} ${active ? `${active.name} (${chosenBy})` : 'none'}`);
    }
    if (body.index.stale)
      io.out(
        `  The index is stale: ${body.index.embedded_chunks} of ${body.index.chunks} chunks have vectors of the ` +
          'embedding model in use (docqa models use <model> --reembed, or POST /api/index/rebuild).',
      );
  }
  return 0;
}

async function pull(argv: string[], io: ModelsCliIo): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  if (positionals.length !== 1)
    throw new DocqaError('bad_request', 'give one model name (docqa models list shows them)');
  const store = storeOf(io);
  const entry = store.entry(positionals[0]!);
  io.out(`Downloading ${entry.name} (${entry.size ?? 'size unknown'}) from ${downloadUrl(entry)} into ${store.dir}`);
  const bar = progressBar(io.progress ?? { isTTY: false, write: () => undefined }, entry.name);
  try {
    const { model, download } = await store.pull(entry.name, {
      onProgress: (progress) => bar.update(progress),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.retryDelayMs !== undefined ? { retryDelayMs: io.retryDelayMs } : {}),
    });
    bar.done();
    const resumed = download.resumedFromBytes > 0 ? `, resumed from ${bytes(download.resumedFromBytes)}` : '';
    const checked = entry.sha256 ? 'SHA-256 verified' : 'no SHA-256 in the catalogue to verify against';
    io.out(`Installed ${model.name}: ${model.path} (${bytes(download.bytes)}, ${checked}${resumed}).`);
    io.out(`Switch the running service to it with: docqa models use ${model.name}`);
    return 0;
  } catch (error) {
    bar.done();
    if (io.signal?.aborted) {
      io.err(`Stopped. The partial download is kept: run docqa models pull ${entry.name} again to resume.`);
      return 1;
    }
    throw error;
  }
}

async function importModel(argv: string[], io: ModelsCliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      link: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new DocqaError('bad_request', 'give one .gguf file to import');
  const store = storeOf(io);
  const model = await store.import(path.resolve(io.cwd, positionals[0]!), {
    ...(values.name ? { name: values.name } : {}),
    link: values.link,
    force: values.force,
  });
  io.out(
    `Imported ${model.name} (${model.purpose}, ${model.gguf.architecture}, ` +
      `${model.gguf.quantization ?? 'unknown quantization'}, ${bytes(model.gguf.sizeBytes)}) as ` +
      `${model.path}${model.linked ? ' (hard link)' : ''}.`,
  );
  io.out(`Switch the running service to it with: docqa models use ${model.name}`);
  return 0;
}

async function remove(argv: string[], io: ModelsCliIo): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new DocqaError('bad_request', 'give one model name');
  const name = positionals[0]!;
  const store = storeOf(io);
  const api = apiOf(io, false);
  if (api) {
    const body = (await api.call('GET', '/api/models')) as {
      active: Record<string, { name: string; source: string } | null>;
    };
    const using = Object.entries(body.active).find(([, active]) => active?.name === name);
    if (using) {
      const how =
        using[1]!.source === 'switched'
          ? `docqa models use --reset ${using[0]}`
          : `unset ${using[0] === 'chat' ? 'LLM_MODEL_PATH' : 'EMBEDDING_MODEL_PATH'} and restart`;
      throw new DocqaError('conflict', `${name} is the ${using[0]} model in use; switch to another first (${how}).`);
    }
  }
  // A partial download of a catalogue model is removed too: rm is how to give up on one.
  const entry = store.catalogue.find(name);
  const partial = entry ? path.join(store.dir, `${entry.file}.part`) : null;
  const hadPartial = partial !== null && fs.existsSync(partial);
  if (partial) for (const file of [partial, `${partial}.json`]) fs.rmSync(file, { force: true });
  const installed = await store.find(name);
  if (!installed) {
    if (hadPartial) {
      io.out(`Removed the partial download of ${name}.`);
      return 0;
    }
    throw new DocqaError('not_found', `${name} is not installed in ${store.dir}.`);
  }
  await store.remove(name);
  const unchecked = ' (Without DOCQA_URL credentials, whether a running service uses it was not checked.)';
  io.out(`Removed ${installed.path}.${api ? '' : unchecked}`);
  return 0;
}

async function use(argv: string[], io: ModelsCliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { reset: { type: 'string' }, reembed: { type: 'boolean', default: false } },
  });
  if (values.reset !== undefined && values.reset !== 'chat' && values.reset !== 'embedding')
    throw new DocqaError('bad_request', '--reset takes chat or embedding');
  if (values.reset === undefined && positionals.length !== 1)
    throw new DocqaError('bad_request', 'give one installed model name, or --reset chat|embedding');
  const api = apiOf(io, true)!;
  const body = values.reset ? { name: null, purpose: values.reset } : { name: positionals[0], reembed: values.reembed };
  const result = (await api.call('POST', '/api/models/use', body)) as {
    purpose: string;
    name: string | null;
    previous: string | null;
    effective_n_ctx: number;
    index: { stale: boolean; embedded_chunks: number; chunks: number };
    rebuild_job_id: string | null;
  };
  io.out(
    result.name
      ? `The ${result.purpose} model is now ` +
          `${result.name}${result.previous ? ` (was ${result.previous})` : ''}; every replica ` +
          'loads it within seconds.'
      : `The ${result.purpose} model is the configured one again.`,
  );
  if (result.purpose === 'chat') io.out(`EFFECTIVE_N_CTX is ${result.effective_n_ctx}.`);
  if (result.rebuild_job_id)
    io.out(`Re-embedding every document: job ${result.rebuild_job_id} (GET /api/jobs/${result.rebuild_job_id}).`);
  else if (result.index.stale)
    io.out(
      `The index is stale: ${result.index.embedded_chunks} of ${result.index.chunks} chunks ` +
        'have vectors of this model. Re-embed with docqa models use ' +
        `${result.name ?? '--reset embedding'} --reembed, or POST /api/index/rebuild.`,
    );
  return 0;
}

interface Api {
  call(method: string, route: string, body?: unknown): Promise<unknown>;
}

/**
 * The running service's HTTP API with an admin token: DOCQA_TOKEN, or a login with
 * DOCQA_USERNAME and DOCQA_PASSWORD. Null when neither is given and `required` is false.
 */
function apiOf(io: ModelsCliIo, required: boolean): Api | null {
  const env = readEnvironment(io.env, io.cwd);
  const hasLogin = Boolean(env.DOCQA_USERNAME && env.DOCQA_PASSWORD);
  if (!env.DOCQA_TOKEN && !hasLogin) {
    if (required)
      throw new DocqaError(
        'bad_request',
        'this talks to the running service: set DOCQA_TOKEN to an admin access token, or ' +
          'DOCQA_USERNAME and DOCQA_PASSWORD (and DOCQA_URL when it is not at http://HOST:PORT)',
      );
    return null;
  }
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const base = (env.DOCQA_URL || `http://${host}:${env.PORT || '8000'}`).replace(/\/+$/, '');
  let token: string | null = env.DOCQA_TOKEN || null;
  const request = async (method: string, route: string, body: unknown, auth: string | null) => {
    let response: Response;
    try {
      response = await fetch(base + route, {
        method,
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new DocqaError(
        'unavailable',
        `cannot reach DocQA at ${base} ` +
          `(${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}); is ` +
          'it running? Set DOCQA_URL otherwise.',
        { cause: error },
      );
    }
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok)
      throw new DocqaError(
        response.status === 401
          ? 'unauthorized'
          : response.status === 404
            ? 'not_found'
            : response.status === 409
              ? 'conflict'
              : 'unavailable',
        `${base}${route} answered ${response.status}: ${String(json.detail ?? text)}`,
      );
    return json;
  };
  return {
    async call(method, route, body) {
      if (!token) {
        const login = await request(
          'POST',
          '/api/auth/login',
          { username: env.DOCQA_USERNAME, password: env.DOCQA_PASSWORD },
          null,
        );
        if (login.mfa_required)
          throw new DocqaError(
            'unauthorized',
            `${env.DOCQA_USERNAME} signs in with TOTP; set DOCQA_TOKEN to an access token instead.`,
          );
        token = String(login.access_token);
      }
      return request(method, route, body, token);
    },
  };
}

/**
 * `docqa models` as the command runs it: this process's environment and
 * terminal; Ctrl-C stops a pull, keeping its partial file.
 */
export function runModelsCommand(argv: string[]): Promise<number> {
  const stop = new AbortController();
  const onSigint = () => stop.abort(new DocqaError('unavailable', 'interrupted'));
  process.once('SIGINT', onSigint);
  const io: ModelsCliIo = {
    cwd: process.cwd(),
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    progress: process.stderr,
    signal: stop.signal,
  };
  return runModels(argv, io).finally(() => process.off('SIGINT', onSigint));
}
