import os from 'node:os';
import * as p from './parsers.js';

export interface VariableSpec<T> {
  parse: p.Parser<T>;
  /** Raw default, parsed like a given value. Absent with `required` unset: the variable is optional. */
  default?: string | (() => string);
  required?: boolean;
  /** First-boot seed: written to the runtime settings table once, authoritative from then on. */
  seed?: boolean;
  /** May come from a secret file instead: `<NAME>_FILE`, or this name under DOCQA_SECRETS_DIR. */
  secret?: string;
  /** Never print the value (logs, `docqa config`). */
  sensitive?: boolean;
  group: string;
  description: string;
}

// Keeps each entry's literal type, so ConfigValues knows which variables always have a value.
function spec<S extends VariableSpec<any>>(s: S): S {
  return s;
}

const bool = (value: boolean) => ({ parse: p.bool, default: value ? 'true' : 'false' });
const port = p.int(1, 65535);

/**
 * Every variable DocQA reads: the spec's sections 5 and 8.2, and DocQA's own (DOCQA_*, HOST, PORT).
 * docs/configuration.md is checked against this table by a test.
 */
export const variables = {
  // --- DocQA process ---
  DOCQA_ENV: spec({
    parse: p.oneOf(['development', 'production', 'test']),
    default: 'development',
    group: 'process',
    description: 'development, production or test; production refuses placeholder secrets.',
  }),
  DOCQA_DATA_DIR: spec({
    parse: p.nonEmpty('a directory'),
    default: './data',
    group: 'process',
    description: 'Directory for the embedded database, uploads and models.',
  }),
  DOCQA_PRESET: spec({
    parse: p.nonEmpty('a preset name or module'),
    default: 'standard',
    group: 'process',
    description: 'Edition preset: the plugins loaded and their defaults.',
  }),
  DOCQA_CONFIG_FILE: spec({
    parse: p.nonEmpty('a file path'),
    group: 'process',
    description: 'JSON file adding plugin instances to the preset (default: docqa.config.json when present).',
  }),
  DOCQA_SECRETS_DIR: spec({
    parse: p.nonEmpty('a directory'),
    default: '/run/secrets',
    group: 'process',
    description: 'Directory of secret files (mfa_encryption_key, smtp_password, oidc_<name>_client_secret, ...).',
  }),
  PUBLIC_URL: spec({
    parse: p.url(['http', 'https']),
    default: 'http://127.0.0.1:8000',
    group: 'process',
    description:
      'Address users reach DocQA at; links in emails (password reset) and OIDC redirects start with it. Unset: http://HOST:PORT (127.0.0.1 when HOST listens on every address), with a warning at start when that is unlikely to be right.',
  }),
  HOST: spec({
    parse: p.nonEmpty('a host or address'),
    default: '127.0.0.1',
    group: 'process',
    description: 'Address the HTTP server listens on (0.0.0.0 in containers).',
  }),
  PORT: spec({
    parse: p.int(0, 65535),
    default: '8000',
    group: 'process',
    description: 'Port the HTTP server listens on (0: any free port).',
  }),
  DOCQA_ROLE: spec({
    parse: p.oneOf(['all', 'api', 'worker']),
    default: 'all',
    group: 'process',
    description:
      'What this process does (docqa serve --role): api serves HTTP and sends jobs; worker runs jobs and schedules, with only /api/health and /api/version over HTTP; all does both. api and worker need DATABASE_URL.',
  }),
  BACKEND_WORKERS: spec({
    parse: p.int(1, 64),
    default: '1',
    group: 'process',
    description: 'Server worker processes (1 on the embedded database).',
  }),
  HEAP_GROWING_PERCENT: spec({
    parse: p.int(0, 400),
    default: '30',
    group: 'process',
    description:
      "How far V8 lets the JavaScript heap grow past what survived its last full collection, in percent; 0 leaves it to V8 (up to 300 %, and later and later on a machine with much memory). Keeps a long ingestion's memory close to what is live (docs/operations.md, Memory).",
  }),
  MAX_JSON_BODY: spec({
    parse: p.byteSize,
    default: '1mb',
    group: 'process',
    description: 'Largest JSON request body.',
  }),
  UPLOAD_DRAIN_SECONDS: spec({
    parse: p.int(0, 3600),
    default: '30',
    group: 'process',
    description:
      "How long the rest of a refused request's body (an upload over a limit) is read and discarded so its client reads the answer, before the connection is closed (0: close at once; docs/security.md).",
  }),
  SHUTDOWN_TIMEOUT_SECONDS: spec({
    parse: p.int(1, 3600),
    default: '30',
    group: 'process',
    description: 'How long a graceful stop waits for requests and jobs to finish.',
  }),
  METRICS_PORT: spec({
    parse: p.int(0, 65535),
    group: 'process',
    description:
      'Port of a separate Prometheus metrics listener serving /metrics without authentication, for scrapers on a private network (unset: off; 0: any free port). The main port always serves GET /api/metrics to admins.',
  }),
  METRICS_HOST: spec({
    parse: p.nonEmpty('a host or address'),
    default: '127.0.0.1',
    group: 'process',
    description:
      'Address the metrics listener (METRICS_PORT) binds to; it has no authentication, so keep it on loopback or a private network.',
  }),
  TRUST_PROXY: spec({
    parse: p.nonEmpty(),
    default: 'loopback',
    group: 'process',
    description: "Which proxies' X-Forwarded-For to trust (express trust proxy syntax).",
  }),
  LOG_LEVEL: spec({
    parse: p.oneOf(['DEBUG', 'INFO', 'WARNING', 'ERROR'], { caseInsensitive: true }),
    default: 'INFO',
    seed: true,
    group: 'logging',
    description: 'DEBUG, INFO, WARNING or ERROR.',
  }),
  RAG_LOG_ANONYMISE: spec({
    ...bool(true),
    seed: true,
    group: 'logging',
    description: 'Anonymise user identifiers in logs.',
  }),
  RAG_LOG_REDACT_QUERIES: spec({
    ...bool(true),
    seed: true,
    group: 'logging',
    description: 'Redact query text in logs.',
  }),
  RAG_LOG_TOKEN_USAGE: spec({
    ...bool(false),
    seed: true,
    group: 'logging',
    description: 'Log per-request token budget usage.',
  }),
  ENABLE_API_DOCS: spec({
    ...bool(false),
    group: 'http',
    description: 'Expose /api/swagger, /api/redoc and /api/openapi.json.',
  }),
  FILTER_MAX_KEYS: spec({
    parse: p.int(1, 10_000),
    default: '32',
    group: 'http',
    description: 'Most keys a search or chat metadata filter may have (docs/security.md).',
  }),
  FILTER_MAX_KEY_LENGTH: spec({
    parse: p.int(1, 10_000),
    default: '256',
    group: 'http',
    description: 'Longest key of a metadata filter, in characters.',
  }),
  FILTER_MAX_VALUE_LENGTH: spec({
    parse: p.int(1, 1_000_000),
    default: '1024',
    group: 'http',
    description: 'Longest value of a metadata filter, in characters.',
  }),

  // --- Authentication (spec section 5) ---
  JWT_SECRET_KEY: spec({
    parse: p.nonEmpty('a secret of at least 32 characters'),
    required: true,
    secret: 'jwt_secret_key',
    sensitive: true,
    group: 'auth',
    description: 'Signing secret of the tokens.',
  }),
  JWT_ALGORITHM: spec({
    parse: p.oneOf(['HS256', 'HS384', 'HS512']),
    default: 'HS256',
    group: 'auth',
    description: 'Signing algorithm.',
  }),
  ACCESS_TOKEN_EXPIRE_SECONDS: spec({
    parse: p.int(30, 86_400),
    default: '900',
    seed: true,
    group: 'auth',
    description: 'Access token lifetime.',
  }),
  REFRESH_TOKEN_EXPIRE_SECONDS: spec({
    parse: p.int(60, 31_536_000),
    default: '604800',
    seed: true,
    group: 'auth',
    description: 'Refresh token lifetime.',
  }),
  SIGN_IN_ACCOUNT_FAILURES: spec({
    parse: p.int(1, 1000),
    default: '5',
    group: 'auth',
    description:
      'Failed sign-ins of one account from one client before each further one waits (1 s, doubling; docs/security.md).',
  }),
  SIGN_IN_ACCOUNT_TOTAL_FAILURES: spec({
    parse: p.int(1, 100_000),
    default: '100',
    group: 'auth',
    description:
      'Failed sign-ins of one account from all clients before each further one waits (at most SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS).',
  }),
  SIGN_IN_CLIENT_FAILURES: spec({
    parse: p.int(1, 100_000),
    default: '20',
    group: 'auth',
    description: 'Failed sign-ins from one client address, whatever the accounts, before each further one waits.',
  }),
  SIGN_IN_MAX_WAIT_SECONDS: spec({
    parse: p.int(1, 86_400),
    default: '900',
    group: 'auth',
    description: 'Longest wait after failed sign-ins of one client or one account from one client.',
  }),
  SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: spec({
    parse: p.int(1, 86_400),
    default: '60',
    group: 'auth',
    description:
      'Longest wait of the count of one account over all clients, kept short so nobody can lock a user out for long by failing in their name (at most SIGN_IN_MAX_WAIT_SECONDS).',
  }),
  SIGN_IN_UNSETTLED_SECONDS: spec({
    parse: p.int(1, 3600),
    default: '10',
    group: 'auth',
    description:
      'A sign-in under way counts towards the allowances until it settles; one that never settles (an error on the way) stops counting after this long.',
  }),
  API_KEY_RATE_LIMIT: spec({
    parse: p.requestRate,
    default: '120r/m',
    group: 'auth',
    description: 'Requests one API key may make (a token bucket per key, in each server process).',
  }),
  API_KEY_RATE_LIMIT_BURST: spec({
    parse: p.int(0),
    default: '60',
    group: 'auth',
    description: 'Burst allowance of that rate.',
  }),
  OUTBOUND_ALLOW: spec({
    parse: p.list(',', p.outboundAllowEntry),
    default: '',
    group: 'http',
    description:
      'Host names, addresses and CIDR ranges the server may connect to although they are not public (loopback, private, link-local): an OIDC provider, a hosted LLM or model mirror inside the network. Comma-separated; empty: public addresses only (docs/security.md).',
  }),
  OIDC_START_RATE_LIMIT: spec({
    parse: p.requestRate,
    default: '30r/m',
    group: 'auth',
    description:
      'Single sign-on starts (/api/auth/oidc/{name}/login) one client address may make (a token bucket per address, in each server process).',
  }),
  OIDC_START_RATE_LIMIT_BURST: spec({
    parse: p.int(0),
    default: '20',
    group: 'auth',
    description: 'Burst allowance of that rate.',
  }),
  DEFAULT_ADMIN_USER: spec({
    parse: p.nonEmpty('a user name'),
    default: 'admin',
    group: 'auth',
    description: 'Admin account created on first start.',
  }),
  DEFAULT_ADMIN_PASSWORD: spec({
    parse: p.nonEmpty('a password'),
    default: 'changeme',
    secret: 'default_admin_password',
    sensitive: true,
    group: 'auth',
    description: 'Its password; `docqa init` generates one.',
  }),
  DEFAULT_ADMIN_EMAIL: spec({
    parse: p.email,
    group: 'auth',
    description: 'Email of the default admin, so password reset works at once.',
  }),
  MFA_ENCRYPTION_KEY: spec({
    parse: p.nonEmpty('a key of at least 32 characters'),
    required: true,
    secret: 'mfa_encryption_key',
    sensitive: true,
    group: 'auth',
    description: 'Key encrypting TOTP and OIDC client secrets at rest.',
  }),
  AUTH_REQUIRE_EMAIL: spec({
    ...bool(false),
    group: 'auth',
    description: 'Require an email on create and update of local users.',
  }),
  OIDC_PROVIDERS: spec({
    parse: p.list(','),
    default: '',
    group: 'auth',
    description: 'Fallback OIDC provider names (OIDC_<NAME>_* variables) when none are stored.',
  }),

  // --- Reverse proxy and TLS ---
  TLS_ENABLED: spec({
    ...bool(false),
    default: '0',
    group: 'proxy',
    description: 'HTTPS termination in the bundled reverse proxy.',
  }),
  SERVER_NAME: spec({
    parse: p.nonEmpty('a domain name'),
    group: 'proxy',
    description: 'Fully-qualified domain name; required when TLS_ENABLED.',
  }),
  TLS_CERT_PATH: spec({
    parse: p.absolutePath,
    default: '/etc/nginx/certs/fullchain.pem',
    group: 'proxy',
    description: 'Certificate path inside the proxy container.',
  }),
  TLS_KEY_PATH: spec({
    parse: p.absolutePath,
    default: '/etc/nginx/certs/privkey.pem',
    group: 'proxy',
    description: 'Private key path inside the proxy container.',
  }),
  HSTS_MAX_AGE: spec({
    parse: p.int(0),
    default: '31536000',
    group: 'proxy',
    description: 'Seconds; 0 disables HSTS.',
  }),
  OCSP_STAPLING: spec({
    parse: p.oneOf(['on', 'off']),
    default: 'on',
    group: 'proxy',
    description: 'off for air-gapped deployments.',
  }),
  STACK_PORT: spec({
    parse: port,
    default: '3000',
    group: 'proxy',
    description: 'Host port of the stack (the reverse proxy).',
  }),
  RATE_LIMIT_RESET: spec({
    parse: p.requestRate,
    default: '10r/m',
    group: 'proxy',
    description: 'Rate of the password-reset endpoints (also enforced by DocQA itself).',
  }),
  RATE_LIMIT_RESET_BURST: spec({
    parse: p.int(0),
    default: '20',
    group: 'proxy',
    description: 'Burst allowance of that rate.',
  }),

  // --- Database, cache, vector store ---
  DATABASE_URL: spec({
    parse: p.url(['postgres', 'postgresql']),
    secret: 'database_url',
    sensitive: true,
    group: 'database',
    description: 'PostgreSQL server with pgvector; unset: the embedded database in DOCQA_DATA_DIR.',
  }),
  DATABASE_READ_URL: spec({
    parse: p.list(',', p.url(['postgres', 'postgresql'])),
    sensitive: true,
    group: 'database',
    description:
      "PostgreSQL streaming replicas of DATABASE_URL's database, comma-separated, that search reads from (round-robin over those healthy, the primary when none is); each gets a pool of DB_POOL_SIZE + DB_MAX_OVERFLOW connections. Needs DATABASE_URL (docs/operations.md, Read replicas).",
  }),
  DATABASE_READ_MAX_LAG_SECONDS: spec({
    parse: p.int(1, 86_400),
    default: '30',
    group: 'database',
    description: 'A replica of DATABASE_READ_URL further behind the primary than this is skipped until it catches up.',
  }),
  DB_POOL_SIZE: spec({
    parse: p.int(1, 1000),
    default: '10',
    group: 'database',
    description:
      'Connection pool size (ignored by the embedded database: PGlite is one connection, which statements take in turn).',
  }),
  DB_MAX_OVERFLOW: spec({
    parse: p.int(0, 1000),
    default: '20',
    group: 'database',
    description: 'Connections beyond the pool size under load (ignored by the embedded database, as DB_POOL_SIZE).',
  }),
  DB_POOL_TIMEOUT: spec({
    parse: p.int(1, 3600),
    default: '30',
    group: 'database',
    description: 'Seconds to wait for a connection.',
  }),
  REQUEST_STATEMENT_TIMEOUT_SECONDS: spec({
    parse: p.int(0, 86_400),
    default: '30',
    group: 'database',
    description:
      "statement_timeout of each database statement an HTTP request runs (0: none); jobs have none. Also the statement is cancelled when the request's client goes away. PostgreSQL server only: the embedded database cannot stop a running statement (docs/security.md).",
  }),
  DB_POOL_RECYCLE: spec({
    parse: p.int(0),
    default: '1800',
    group: 'database',
    description:
      'Seconds after which connections are replaced (0: never). Ignored by the embedded database: its one connection is in the process.',
  }),
  CACHE_URL: spec({
    parse: p.url(['redis', 'rediss', 'postgres', 'postgresql']),
    group: 'database',
    description: 'Accepted for compatibility; DocQA keeps shared state in PostgreSQL.',
  }),
  VECTORDB_URL: spec({
    parse: p.url(['postgres', 'postgresql', 'http', 'https']),
    group: 'database',
    description:
      'Where the vector store keeps its vectors, apart from the main database. pgvector: a PostgreSQL server with pgvector (postgres://…) with a pool of its own (DB_POOL_SIZE + DB_MAX_OVERFLOW connections) and its own migrations, reported by /api/health as vectors; an http(s) URL stops its start-up. Unset: the vectors stay in the main database.',
  }),
  VECTORDB_API_KEY: spec({
    parse: p.nonEmpty(),
    default: 'change-me-vectordb-key',
    secret: 'vectordb_api_key',
    sensitive: true,
    group: 'database',
    description:
      "Key of that vector database. pgvector: the password of VECTORDB_URL's user when the URL has none (the placeholder is never sent). Production refuses the placeholder when VECTORDB_URL has no password of its own.",
  }),

  // --- Jobs and retention ---
  JOB_STORE_BACKEND: spec({
    parse: p.oneOf(['auto', 'cache', 'memory']),
    default: 'auto',
    group: 'jobs',
    description: 'Accepted for compatibility; job state is always kept in PostgreSQL, shared by all replicas.',
  }),
  JOB_STATE_TTL_SECONDS: spec({
    parse: p.int(60),
    default: '86400',
    group: 'jobs',
    description:
      'How long a finished job stays in GET /api/jobs and GET /api/jobs/{id}; its history stays until JOB_HISTORY_RETENTION_DAYS.',
  }),
  SCHEDULER_LEADER_LOCK_ENABLED: spec({
    ...bool(true),
    group: 'jobs',
    description: 'Only one replica fires scheduled syncs per tick.',
  }),
  SCHEDULER_LEADER_LOCK_TTL_SECONDS: spec({
    parse: p.int(3, 3600),
    default: '30',
    group: 'jobs',
    description: 'Leader lock TTL, renewed at a third of it.',
  }),
  RETENTION_SWEEPS_ENABLED: spec({
    ...bool(true),
    group: 'jobs',
    description: 'Daily sweeps of job history and conversations.',
  }),
  JOB_HISTORY_RETENTION_DAYS: spec({
    parse: p.int(1),
    default: '30',
    group: 'jobs',
    description: 'Days of job history kept.',
  }),
  RAG_CONVERSATION_MAX_AGE_DAYS: spec({
    parse: p.int(1),
    default: '90',
    seed: true,
    group: 'jobs',
    description: 'Conversations older than this are purged.',
  }),
  RAG_CONVERSATION_MAX_TURNS: spec({
    parse: p.int(1),
    default: '100',
    seed: true,
    group: 'jobs',
    description: 'Turns kept per conversation.',
  }),
  RAG_AUDIT_RETENTION_DAYS: spec({
    parse: p.int(1),
    default: '365',
    seed: true,
    group: 'jobs',
    description: 'Days of audit log kept.',
  }),

  // --- Ingestion ---
  CONNECTOR_ALLOWED_PATHS: spec({
    parse: p.list(':', p.absolutePath),
    default: '/app/docs',
    group: 'ingestion',
    description: 'Colon-separated directories connectors may read.',
  }),
  INDEX_EXTRACTION_WORKERS: spec({
    parse: p.int(1, 64),
    default: () => String(Math.max(1, Math.min(4, os.availableParallelism() - 1))),
    group: 'ingestion',
    description: 'Text-extraction worker threads (default: cores - 1, at most 4).',
  }),
  INDEX_EXTRACTION_WORKER_HEAP_MB: spec({
    parse: p.int(128, 16_384),
    default: '1024',
    group: 'ingestion',
    description:
      'JavaScript heap of each extraction worker thread, in MB. A document needing more (a zip bomb) fails alone with an error naming this limit and its worker is replaced, so the process stays within its memory budget (docs/security.md).',
  }),
  INDEX_EXTRACTION_TIMEOUT_SECONDS: spec({
    parse: p.int(1, 86_400),
    default: '600',
    group: 'ingestion',
    description:
      'Most time reading one document may take; its extraction worker is then terminated and replaced and the document fails naming this limit (docs/security.md).',
  }),
  RULE_CPU_BUDGET_MS: spec({
    parse: p.int(1, 60_000),
    default: '50',
    group: 'ingestion',
    description:
      "CPU time one metadata rule's pattern may spend on one document or query, plus RULE_CPU_MS_PER_MILLION_CHARACTERS for its length; a rule over it is skipped and named on the document (docs/security.md).",
  }),
  RULE_CPU_MS_PER_MILLION_CHARACTERS: spec({
    parse: p.int(0, 600_000),
    default: '200',
    group: 'ingestion',
    description: "What a metadata rule's CPU budget grows by per million characters matched.",
  }),
  INDEX_UPSERT_BATCH_SIZE: spec({
    parse: p.int(1, 100_000),
    default: '256',
    group: 'ingestion',
    description: 'Chunks held in memory before each flush to the index.',
  }),
  INDEXING_OCR_ENABLED: spec({
    ...bool(false),
    group: 'ingestion',
    description: 'OCR scanned PDFs and images (PNG, JPG, TIFF).',
  }),
  INDEXING_OCR_LANGUAGES: spec({
    parse: p.list(','),
    default: 'eng',
    group: 'ingestion',
    description: 'Comma-separated OCR language codes.',
  }),
  INDEX_LANGUAGES: spec({
    parse: p.list(',', p.languageCode),
    default: '',
    group: 'ingestion',
    description:
      'Comma-separated ISO 639-1 codes the lexical language detection may answer (empty: every language it knows); restricts the detection of chunks and queries, never the analysis.',
  }),
  INDEXING_TABLES_ENABLED: spec({
    ...bool(false),
    group: 'ingestion',
    description: 'Extract table rows from PDF, DOCX, Excel, CSV.',
  }),
  EMBEDDING_MODEL_PATH: spec({
    parse: p.absolutePath,
    group: 'ingestion',
    description: 'GGUF embedding model for dense retrieval (embedder-llamacpp); unset: lexical retrieval only.',
  }),
  RAG_MIN_CHUNK_LENGTH: spec({
    parse: p.int(0),
    default: '50',
    seed: true,
    group: 'ingestion',
    description: 'Shorter pieces are merged into a neighbouring chunk, never dropped (characters).',
  }),

  // --- Models and chat ---
  LLM_BACKEND: spec({
    parse: p.oneOf(['local', 'hosted']),
    default: 'local',
    group: 'llm',
    description: 'local (in-process GGUF model, or extractive answers without one) or hosted (compatible API).',
  }),
  LLM_MODEL_PATH: spec({
    parse: p.absolutePath,
    group: 'llm',
    description: 'GGUF chat model for LLM_BACKEND=local; unset: extractive answers quoting the best passages.',
  }),
  MODELS_DIR: spec({
    parse: p.nonEmpty('a directory'),
    group: 'llm',
    description:
      'Where `docqa models pull` and `import` keep GGUF models (default: <DOCQA_DATA_DIR>/models); replicas should share it.',
  }),
  MODELS_CATALOGUE: spec({
    parse: p.nonEmpty('a JSON file'),
    group: 'llm',
    description:
      'Catalogue of the models `docqa models pull` offers (default: the one shipped with DocQA); point it at a mirror for air-gapped installs.',
  }),
  N_CTX: spec({
    parse: p.int(256, 1_048_576),
    default: '8192',
    group: 'llm',
    description:
      "Requested context window in tokens; EFFECTIVE_N_CTX lowers it to the chat model's own (a GGUF file's, what the inference server reports, or what a hosted API publishes), with a warning.",
  }),
  N_THREADS: spec({
    parse: p.int(1, 1024),
    default: '8',
    group: 'llm',
    description:
      "CPU threads for inference, never more than the cores DocQA may use. The local embedding model gets one core less on the embedded database (no `DATABASE_URL`), which runs its SQL on the server's main thread while an ingest embeds.",
  }),
  N_GPU_LAYERS: spec({
    parse: p.int(-1, 10_000),
    default: '0',
    group: 'llm',
    description:
      'Layers offloaded to a CUDA GPU when one is detected; -1 all. For the local embedding model, on the GPU EMBED_DEVICE chose: above 0 limits its layers, 0 leaves as many as fit.',
  }),
  EMBED_DEVICE: spec({
    parse: p.oneOf(['auto', 'cpu', 'cuda']),
    default: 'auto',
    group: 'llm',
    description:
      'Where the local embedding model computes: auto (a GPU when llama.cpp can use one, else the CPU), cpu, or cuda (start-up fails when CUDA cannot be used). GET /api/model-info shows the device in use.',
  }),
  INFERENCE_URL: spec({
    parse: p.url(['http', 'https']),
    group: 'llm',
    description:
      'Local inference server URL (llama.cpp server, http://inference:8080 in the compose stack): with LLM_BACKEND=local and no LLM_MODEL_PATH, chat answers come from its OpenAI-compatible API, and its context (GET /props, read at start and every 30 s) caps EFFECTIVE_N_CTX; unset: in-process model or extractive answers.',
  }),
  INFERENCE_TIMEOUT_SECONDS: spec({
    parse: p.int(1, 3600),
    default: '120',
    seed: true,
    group: 'llm',
    description: 'Timeout of one inference call.',
  }),
  HOSTED_API_KEY: spec({
    parse: p.nonEmpty(),
    secret: 'hosted_api_key',
    sensitive: true,
    group: 'llm',
    description: 'Hosted provider key; required when LLM_BACKEND=hosted.',
  }),
  HOSTED_BASE_URL: spec({
    parse: p.url(['http', 'https']),
    group: 'llm',
    description: 'Overrides the hosted provider base URL.',
  }),
  HOSTED_PROVIDER: spec({
    parse: p.oneOf(['openai', 'azure']),
    default: 'openai',
    group: 'llm',
    description:
      'openai: any OpenAI-compatible API at HOSTED_BASE_URL; azure: Azure OpenAI, HOSTED_BASE_URL is the resource endpoint and HOSTED_MODEL the deployment.',
  }),
  HOSTED_API_VERSION: spec({
    parse: p.nonEmpty('an API version'),
    default: '2024-10-21',
    group: 'llm',
    description: 'Azure OpenAI API version (HOSTED_PROVIDER=azure).',
  }),
  HOSTED_MODEL: spec({
    parse: p.nonEmpty('a model name'),
    group: 'llm',
    description: 'Hosted chat model; required when LLM_BACKEND=hosted.',
  }),
  RAG_CLASSIFIER_LLM_ENABLED: spec({
    ...bool(false),
    group: 'llm',
    description:
      'Let the chat model settle ambiguous query classification. No effect with extractive answers (no language model): said at start and in GET /api/model-info (classifier_llm).',
  }),
  RAG_CLASSIFIER_LLM_MAX_TOKENS: spec({
    parse: p.int(1, 4096),
    default: '64',
    group: 'llm',
    description: 'Max tokens of the classifier response.',
  }),
  RAG_RERANK_ENABLED: spec({
    ...bool(false),
    group: 'llm',
    description:
      'Reorder the fused top RAG_RERANK_CANDIDATES of every search (and chat retrieval) with the cross-encoder ' +
      'RAG_RERANK_MODEL before cutting to top_k; its cost shows in `timing.rerank`. Off: the reranker is not loaded.',
  }),
  RAG_RERANK_MODEL: spec({
    parse: p.rerankModel,
    group: 'llm',
    description:
      'The reranking model: a catalogue name of purpose reranking (`docqa models pull` it first) or a .gguf file ' +
      'name in MODELS_DIR; required when RAG_RERANK_ENABLED.',
  }),
  RAG_RERANK_CANDIDATES: spec({
    parse: p.int(1, 200),
    default: '30',
    group: 'llm',
    description:
      'Fused candidates the reranker scores (at least top_k are); its cost grows with each one ' +
      '(one model pass per candidate).',
  }),
  RAG_QUERY_REWRITE_ENABLED: spec({
    ...bool(false),
    seed: true,
    group: 'llm',
    description: 'Rewrite follow-up questions in conversations.',
  }),
  RAG_QUERY_REWRITE_MAX_TURNS: spec({
    parse: p.int(1, 50),
    default: '3',
    seed: true,
    group: 'llm',
    description: 'Prior turns used for rewriting.',
  }),

  // --- Email ---
  EMAIL_PROVIDER: spec({
    parse: p.oneOf(['console', 'smtp']),
    default: 'console',
    group: 'email',
    description: 'console logs reset links; smtp sends them.',
  }),
  SMTP_HOST: spec({ parse: p.nonEmpty('a host'), group: 'email', description: 'Required when EMAIL_PROVIDER=smtp.' }),
  SMTP_PORT: spec({ parse: port, group: 'email', description: 'Required when EMAIL_PROVIDER=smtp.' }),
  SMTP_FROM: spec({
    parse: p.email,
    group: 'email',
    description: 'Sender address; required when EMAIL_PROVIDER=smtp.',
  }),
  SMTP_USERNAME: spec({ parse: p.nonEmpty(), group: 'email', description: 'SMTP user name.' }),
  SMTP_PASSWORD: spec({
    parse: p.nonEmpty(),
    secret: 'smtp_password',
    sensitive: true,
    group: 'email',
    description: 'SMTP password (from a secret).',
  }),
  SMTP_STARTTLS: spec({ ...bool(false), group: 'email', description: 'Upgrade with STARTTLS.' }),
  SMTP_TLS: spec({ ...bool(false), group: 'email', description: 'Implicit TLS.' }),

  // --- Licensing ---
  LICENSE_KEY: spec({
    parse: p.nonEmpty(),
    secret: 'license_key',
    sensitive: true,
    group: 'license',
    description: 'License applied at start.',
  }),
  LICENSE_PUBLIC_KEY: spec({
    parse: p.nonEmpty('a PEM public key'),
    secret: 'license_public_key',
    group: 'license',
    description: 'Ed25519 public key that verifies licenses (default: the vendor key).',
  }),
} satisfies Record<string, VariableSpec<unknown>>;

export type VariableName = keyof typeof variables;

type Parsed<S> = S extends { parse: p.Parser<infer T> } ? T : never;
type HasDefault<S> = S extends { default: unknown } ? true : S extends { required: true } ? true : false;

/** The validated configuration: variables with a default or `required` are always present. */
export type ConfigValues = {
  [K in VariableName]: HasDefault<(typeof variables)[K]> extends true
    ? Parsed<(typeof variables)[K]>
    : Parsed<(typeof variables)[K]> | undefined;
};

export const seedVariables = (Object.keys(variables) as VariableName[]).filter(
  (name) => (variables[name] as VariableSpec<unknown>).seed,
);
