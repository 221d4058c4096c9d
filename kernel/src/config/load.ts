import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { DocqaError, type OidcFallbackProvider } from '@docqa/plugin-api';
import { InvalidValue, list, nonEmpty, url } from './parsers.js';
import { variables, type ConfigValues, type VariableName, type VariableSpec } from './variables.js';

export type { OidcFallbackProvider };

export interface LoadedConfig {
  values: ConfigValues;
  oidcProviders: OidcFallbackProvider[];
  /** Absolute data directory. */
  dataDir: string;
  production: boolean;
  /** Things worth one log line at start that do not stop it. */
  warnings: string[];
}

type Env = Record<string, string | undefined>;

/**
 * Reads `.env` from `cwd` (only a file literally named .env), under the real environment: a
 * variable set in the environment wins over the file.
 */
export function readEnvironment(processEnv: Env, cwd: string): Env {
  const file = path.join(cwd, '.env');
  if (!fs.existsSync(file)) return { ...processEnv };
  const fromFile = parseEnv(fs.readFileSync(file, 'utf8'));
  return { ...fromFile, ...processEnv };
}

/**
 * Validates every variable and stops with one line per bad value, each naming its variable.
 * Throws DocqaError('config_invalid') whose message holds those lines.
 */
export function loadConfig(env: Env, options: { cwd: string }): LoadedConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  const secretsDir = env.DOCQA_SECRETS_DIR ?? '/run/secrets';
  const values: Record<string, unknown> = {};

  for (const name of Object.keys(variables) as VariableName[]) {
    const variable = variables[name] as VariableSpec<unknown>;
    const raw = rawValue(name, variable, env, secretsDir, problems);
    if (raw === undefined || raw === '') {
      if (variable.required) {
        const secretHint = variable.secret ? ` Set it, ${name}_FILE, or the secret file ${variable.secret}.` : '';
        problems.push(`${name} is required: ${variable.description}${secretHint}`);
        continue;
      }
      const fallback = typeof variable.default === 'function' ? variable.default() : variable.default;
      values[name] = fallback === undefined ? undefined : variable.parse(fallback);
      continue;
    }
    try {
      values[name] = variable.parse(raw);
    } catch (error) {
      if (!(error instanceof InvalidValue)) throw error;
      const shown = variable.sensitive ? '' : `="${raw.length > 60 ? `${raw.slice(0, 57)}...` : raw}"`;
      problems.push(`${name}${shown} ${error.message} (${variable.description.replace(/\.$/, '')}).`);
    }
  }

  const config = values as ConfigValues;
  const production = config.DOCQA_ENV === 'production';
  if (!env.PUBLIC_URL) derivePublicUrl(config, production, warnings);
  problems.push(...crossChecks(config, production));
  const oidcProviders = readOidcProviders(config.OIDC_PROVIDERS ?? [], env, secretsDir, problems);

  if (env.EFFECTIVE_N_CTX !== undefined) {
    warnings.push(
      'EFFECTIVE_N_CTX is derived at start-up from N_CTX and the model; the value set in the environment is ignored.',
    );
  }
  for (const key of Object.keys(env)) {
    if (key.startsWith('DOCQA_') && !(key in variables) && !key.endsWith('_FILE')) {
      warnings.push(`${key} is not a DocQA variable (a typo?); it is ignored.`);
    }
  }

  if (problems.length > 0) {
    throw new DocqaError('config_invalid', problems.map((line) => `Configuration error: ${line}`).join('\n'));
  }
  return {
    values: config,
    oidcProviders,
    dataDir: path.resolve(options.cwd, config.DOCQA_DATA_DIR),
    production,
    warnings,
  };
}

function rawValue(
  name: string,
  variable: VariableSpec<unknown>,
  env: Env,
  secretsDir: string,
  problems: string[],
): string | undefined {
  const direct = env[name];
  if (!variable.secret) return direct;
  const fileVar = env[`${name}_FILE`];
  if (direct !== undefined && direct !== '' && fileVar) {
    problems.push(`${name} and ${name}_FILE are both set; set only one.`);
    return undefined;
  }
  if (direct !== undefined && direct !== '') return direct;
  const file = fileVar || path.join(secretsDir, variable.secret);
  if (!fileVar && !fs.existsSync(file)) return undefined;
  try {
    return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    problems.push(`${name}_FILE="${file}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
    return undefined;
  }
}

/**
 * PUBLIC_URL left unset: the address this server listens on, so a reset link on port 9000 does not
 * point at 8000. Listening on every address (a container) or in production, that is seldom where
 * users reach DocQA (a proxy, a domain): say so at start.
 */
function derivePublicUrl(config: ConfigValues, production: boolean, warnings: string[]): void {
  const wildcard = config.HOST === '0.0.0.0' || config.HOST === '::';
  const host = wildcard ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const port = config.PORT === 0 ? 8000 : config.PORT;
  config.PUBLIC_URL = `http://${host}:${port}`;
  if (wildcard || production || config.PORT === 0) {
    warnings.push(
      'PUBLIC_URL is not set, so links in emails (password reset) and OIDC redirects use ' +
        `${config.PUBLIC_URL}; set it to the address users reach DocQA at (behind a proxy: the proxy's).`,
    );
  }
}

function crossChecks(c: ConfigValues, production: boolean): string[] {
  const problems: string[] = [];
  if (c.JWT_SECRET_KEY !== undefined && c.JWT_SECRET_KEY.length < 32) {
    problems.push('JWT_SECRET_KEY must be at least 32 characters (docqa init generates one).');
  }
  if (c.MFA_ENCRYPTION_KEY !== undefined && c.MFA_ENCRYPTION_KEY.length < 32) {
    problems.push('MFA_ENCRYPTION_KEY must be at least 32 characters (docqa init generates one).');
  }
  if (c.LLM_BACKEND === 'hosted') {
    if (!c.HOSTED_API_KEY) problems.push('HOSTED_API_KEY is required when LLM_BACKEND=hosted.');
    if (!c.HOSTED_MODEL) problems.push('HOSTED_MODEL is required when LLM_BACKEND=hosted.');
    if (c.HOSTED_PROVIDER === 'azure' && !c.HOSTED_BASE_URL)
      problems.push('HOSTED_BASE_URL (the Azure OpenAI resource endpoint) is required when HOSTED_PROVIDER=azure.');
  }
  if (c.EMAIL_PROVIDER === 'smtp') {
    for (const name of ['SMTP_HOST', 'SMTP_PORT', 'SMTP_FROM'] as const) {
      if (c[name] === undefined) problems.push(`${name} is required when EMAIL_PROVIDER=smtp.`);
    }
    if (c.SMTP_TLS && c.SMTP_STARTTLS) problems.push('SMTP_TLS and SMTP_STARTTLS exclude each other; set one.');
  }
  if (c.RAG_RERANK_ENABLED && !c.RAG_RERANK_MODEL)
    problems.push(
      'RAG_RERANK_MODEL is required when RAG_RERANK_ENABLED=true (a catalogue name or a .gguf in MODELS_DIR).',
    );
  if (c.TLS_ENABLED && !c.SERVER_NAME) problems.push('SERVER_NAME is required when TLS_ENABLED=1.');
  if (c.DOCQA_ROLE !== 'all' && !c.DATABASE_URL) {
    problems.push(
      `DOCQA_ROLE=${c.DOCQA_ROLE} (docqa serve --role ${c.DOCQA_ROLE}) needs DATABASE_URL: the ` +
        'embedded database belongs to one process, which serves the API and runs the jobs; use role ' +
        'all, or a PostgreSQL server for separate api and worker processes.',
    );
  }
  if (c.DATABASE_READ_URL !== undefined && c.DATABASE_READ_URL.length > 0 && !c.DATABASE_URL) {
    problems.push(
      'DATABASE_READ_URL needs DATABASE_URL: read replicas copy a ' +
        'PostgreSQL server, and the embedded database has none.',
    );
  }
  if (production) {
    if (c.DEFAULT_ADMIN_PASSWORD === 'changeme') {
      problems.push(
        'DEFAULT_ADMIN_PASSWORD is the documented placeholder; production needs your own (docqa init generates one).',
      );
    }
    // A URL with its own password needs no key (pgvector takes the key as the password otherwise).
    if (c.VECTORDB_URL && c.VECTORDB_API_KEY === 'change-me-vectordb-key' && !new URL(c.VECTORDB_URL).password) {
      problems.push('VECTORDB_API_KEY is the placeholder; production needs the real key of VECTORDB_URL.');
    }
  }
  return problems;
}

function readOidcProviders(names: string[], env: Env, secretsDir: string, problems: string[]): OidcFallbackProvider[] {
  const providers: OidcFallbackProvider[] = [];
  for (const name of names) {
    const key = name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    const prefix = `OIDC_${key}_`;
    const read = (suffix: string, parse: (raw: string) => string) => {
      const raw = env[prefix + suffix];
      if (raw === undefined || raw === '') {
        problems.push(`${prefix}${suffix} is required because OIDC_PROVIDERS names ${name}.`);
        return '';
      }
      try {
        return parse(raw);
      } catch (error) {
        problems.push(`${prefix}${suffix}="${raw}" ${(error as Error).message}.`);
        return '';
      }
    };
    if (env[`${prefix}CLIENT_SECRET`] !== undefined) {
      problems.push(
        `${prefix}CLIENT_SECRET must not be a plain variable; supply the secret ` +
          `oidc_${name.toLowerCase()}_client_secret (or ${prefix}CLIENT_SECRET_FILE).`,
      );
    }
    const secretFile =
      env[`${prefix}CLIENT_SECRET_FILE`] || path.join(secretsDir, `oidc_${name.toLowerCase()}_client_secret`);
    const clientSecret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : undefined;
    providers.push({
      name: name.toLowerCase(),
      clientId: read('CLIENT_ID', nonEmpty('a client id')),
      clientSecret,
      discoveryUrl: read('DISCOVERY_URL', url(['http', 'https'])),
      redirectUri: read('REDIRECT_URI', url(['http', 'https'])),
      scopes: (env[`${prefix}SCOPES`] ?? 'openid email profile').split(/\s+/).filter(Boolean),
      adminGroups: list(',')(env[`${prefix}ADMIN_GROUPS`] ?? ''),
    });
  }
  return providers;
}
