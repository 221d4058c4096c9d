import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { loadConfig, readEnvironment } from './load.js';

const secrets = {
  JWT_SECRET_KEY: 'k'.repeat(40),
  MFA_ENCRYPTION_KEY: 'm'.repeat(40),
  DOCQA_SECRETS_DIR: '/nonexistent-secrets-dir',
};

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env, { cwd: '/tmp' });
  } catch (error) {
    expect(error).to.be.instanceOf(DocqaError);
    expect((error as DocqaError).code).to.equal('config_invalid');
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('applies the defaults the spec gives', () => {
    const { values } = loadConfig(secrets, { cwd: '/tmp' });
    expect(values).to.include({
      JWT_ALGORITHM: 'HS256',
      ACCESS_TOKEN_EXPIRE_SECONDS: 900,
      REFRESH_TOKEN_EXPIRE_SECONDS: 604800,
      DEFAULT_ADMIN_USER: 'admin',
      AUTH_REQUIRE_EMAIL: false,
      TLS_ENABLED: false,
      TLS_CERT_PATH: '/etc/nginx/certs/fullchain.pem',
      TLS_KEY_PATH: '/etc/nginx/certs/privkey.pem',
      HSTS_MAX_AGE: 31536000,
      OCSP_STAPLING: 'on',
      RAG_LOG_ANONYMISE: true,
      RAG_LOG_REDACT_QUERIES: true,
      RAG_CONVERSATION_MAX_AGE_DAYS: 90,
      RAG_CONVERSATION_MAX_TURNS: 100,
      LOG_LEVEL: 'INFO',
      RAG_AUDIT_RETENTION_DAYS: 365,
      BACKEND_WORKERS: 1,
      DOCQA_ROLE: 'all',
      STACK_PORT: 3000,
      INDEXING_OCR_ENABLED: false,
      INDEXING_TABLES_ENABLED: false,
      N_CTX: 8192,
      N_THREADS: 8,
      N_GPU_LAYERS: 0,
      EMBED_DEVICE: 'auto',
      INFERENCE_TIMEOUT_SECONDS: 120,
      LLM_BACKEND: 'local',
      EMAIL_PROVIDER: 'console',
      RATE_LIMIT_RESET_BURST: 20,
      RAG_CLASSIFIER_LLM_ENABLED: false,
      RAG_CLASSIFIER_LLM_MAX_TOKENS: 64,
      RAG_LOG_TOKEN_USAGE: false,
      RAG_QUERY_REWRITE_ENABLED: false,
      RAG_QUERY_REWRITE_MAX_TURNS: 3,
      RAG_MIN_CHUNK_LENGTH: 50,
      JOB_STORE_BACKEND: 'auto',
      JOB_STATE_TTL_SECONDS: 86400,
      SCHEDULER_LEADER_LOCK_ENABLED: true,
      SCHEDULER_LEADER_LOCK_TTL_SECONDS: 30,
      RETENTION_SWEEPS_ENABLED: true,
      JOB_HISTORY_RETENTION_DAYS: 30,
      INDEX_UPSERT_BATCH_SIZE: 256,
      ENABLE_API_DOCS: false,
      DB_POOL_SIZE: 10,
      DB_MAX_OVERFLOW: 20,
      DB_POOL_TIMEOUT: 30,
      DB_POOL_RECYCLE: 1800,
    });
    expect(values.CONNECTOR_ALLOWED_PATHS).to.deep.equal(['/app/docs']);
    expect(values.INDEXING_OCR_LANGUAGES).to.deep.equal(['eng']);
    expect(values.RATE_LIMIT_RESET).to.deep.include({ count: 10, per: 'minute' });
    expect(values.DATABASE_URL).to.equal(undefined);
    expect(values.INDEX_EXTRACTION_WORKERS).to.be.within(1, 4);
  });

  it('derives PUBLIC_URL from HOST and PORT when it is unset, and warns where that is unlikely to be right', () => {
    expect(loadConfig({ ...secrets, PORT: '9000' }, { cwd: '/tmp' }).values.PUBLIC_URL).to.equal(
      'http://127.0.0.1:9000',
    );
    const quiet = loadConfig({ ...secrets, HOST: '127.0.0.5' }, { cwd: '/tmp' });
    expect([quiet.values.PUBLIC_URL, quiet.warnings]).to.deep.equal(['http://127.0.0.5:8000', []]);
    const container = loadConfig({ ...secrets, HOST: '0.0.0.0' }, { cwd: '/tmp' });
    expect(container.values.PUBLIC_URL).to.equal('http://127.0.0.1:8000');
    expect(container.warnings.join('\n')).to.match(/PUBLIC_URL is not set/);
    const set = loadConfig({ ...secrets, HOST: '0.0.0.0', PUBLIC_URL: 'https://docs.example.com' }, { cwd: '/tmp' });
    expect([set.values.PUBLIC_URL, set.warnings]).to.deep.equal(['https://docs.example.com', []]);
  });

  it('validates the cache and leader-lock variables, though DocQA needs neither cache nor leader', () => {
    // Job state and schedules live in PostgreSQL (pg-boss), shared by every replica (test/replicas.test.ts):
    // JOB_STORE_BACKEND=cache, a hard requirement on a cache in the spec, must not stop a start without one.
    const cached = loadConfig(
      { ...secrets, JOB_STORE_BACKEND: 'cache', SCHEDULER_LEADER_LOCK_ENABLED: 'false' },
      {
        cwd: '/tmp',
      },
    );
    expect(cached.values).to.include({ JOB_STORE_BACKEND: 'cache', SCHEDULER_LEADER_LOCK_ENABLED: false });
    expect(cached.warnings).to.deep.equal([]);
    expect(loadConfig({ ...secrets, CACHE_URL: 'redis://cache:6379/0' }, { cwd: '/tmp' }).warnings).to.deep.equal([]);
    // A typo is still caught at start.
    expect(failure({ ...secrets, JOB_STORE_BACKEND: 'redis' })).to.include('JOB_STORE_BACKEND');
    expect(failure({ ...secrets, CACHE_URL: 'http://cache:6379' })).to.include('CACHE_URL');
    expect(failure({ ...secrets, SCHEDULER_LEADER_LOCK_TTL_SECONDS: '1' })).to.include(
      'SCHEDULER_LEADER_LOCK_TTL_SECONDS',
    );
  });

  it('validates the limits of docs/security.md that were fixed constants, defaulting to their old values', () => {
    const { values } = loadConfig(secrets, { cwd: '/tmp' });
    expect(values).to.include({
      INDEX_EXTRACTION_TIMEOUT_SECONDS: 600,
      RULE_CPU_BUDGET_MS: 50,
      RULE_CPU_MS_PER_MILLION_CHARACTERS: 200,
      SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: 60,
      SIGN_IN_UNSETTLED_SECONDS: 10,
      UPLOAD_DRAIN_SECONDS: 30,
    });
    const bad: Record<string, [string, string]> = {
      INDEX_EXTRACTION_TIMEOUT_SECONDS: ['0', 'from 1 to 86400'],
      RULE_CPU_BUDGET_MS: ['0', 'from 1 to 60000'],
      RULE_CPU_MS_PER_MILLION_CHARACTERS: ['-1', 'from 0 to 600000'],
      SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: ['1.5', 'from 1 to 86400'],
      SIGN_IN_UNSETTLED_SECONDS: ['3601', 'from 1 to 3600'],
      UPLOAD_DRAIN_SECONDS: ['soon', 'from 0 to 3600'],
    };
    for (const [name, [value, range]] of Object.entries(bad)) {
      expect(failure({ ...secrets, [name]: value })).to.match(
        new RegExp(`^Configuration error: ${name}="${value.replace('.', '\\.')}" must be a whole number ${range} \\(`),
      );
    }
  });

  it('names the variable of a bad value in one line', () => {
    const message = failure({ ...secrets, N_THREADS: 'abc' });
    expect(message.split('\n')).to.have.length(1);
    expect(message).to.match(/^Configuration error: N_THREADS="abc" must be a whole number/);
  });

  it('reports every bad variable at once', () => {
    const message = failure({
      ...secrets,
      N_THREADS: 'abc',
      LOG_LEVEL: 'LOUD',
      DATABASE_URL: 'mysql://x',
      ENABLE_API_DOCS: 'perhaps',
    });
    const lines = message.split('\n');
    expect(lines).to.have.length(4);
    expect(message)
      .to.include('N_THREADS')
      .and.include('LOG_LEVEL')
      .and.include('DATABASE_URL')
      .and.include('ENABLE_API_DOCS');
  });

  it('refuses an api or worker role on the embedded database, which one process must serve', () => {
    for (const role of ['api', 'worker']) {
      expect(failure({ ...secrets, DOCQA_ROLE: role })).to.match(
        new RegExp(`^Configuration error: DOCQA_ROLE=${role} \\(docqa serve --role ${role}\\) needs DATABASE_URL`),
      );
      expect(
        loadConfig({ ...secrets, DOCQA_ROLE: role, DATABASE_URL: 'postgres://db/docqa' }, { cwd: '/tmp' }).values
          .DOCQA_ROLE,
      ).to.equal(role);
    }
    expect(failure({ ...secrets, DOCQA_ROLE: 'both' })).to.include('DOCQA_ROLE="both"');
  });

  it('takes read replicas only beside DATABASE_URL, and refuses a replica URL that is not PostgreSQL', () => {
    const replicas = 'postgres://u:p@r1:5432/docqa, postgres://u:p@r2:5432/docqa';
    expect(failure({ ...secrets, DATABASE_READ_URL: replicas })).to.match(
      /^Configuration error: DATABASE_READ_URL needs DATABASE_URL/,
    );
    const { values } = loadConfig(
      { ...secrets, DATABASE_URL: 'postgres://db/docqa', DATABASE_READ_URL: replicas },
      { cwd: '/tmp' },
    );
    expect(values.DATABASE_READ_URL).to.deep.equal(['postgres://u:p@r1:5432/docqa', 'postgres://u:p@r2:5432/docqa']);
    expect(values.DATABASE_READ_MAX_LAG_SECONDS).to.equal(30);
    const wrong = failure({
      ...secrets,
      DATABASE_URL: 'postgres://db/docqa',
      DATABASE_READ_URL: 'http://u:secret@r1/x',
    });
    expect(wrong).to.include('DATABASE_READ_URL must be a URL with scheme postgres').and.not.include('secret');
  });

  it('never prints the value of a secret', () => {
    const message = failure({ ...secrets, JWT_SECRET_KEY: 'short-secret' });
    expect(message).to.include('JWT_SECRET_KEY').and.not.include('short-secret');
  });

  it('refuses to start without JWT_SECRET_KEY and MFA_ENCRYPTION_KEY', () => {
    const message = failure({ DOCQA_SECRETS_DIR: '/nonexistent-secrets-dir' });
    expect(message).to.include('JWT_SECRET_KEY is required').and.include('MFA_ENCRYPTION_KEY is required');
  });

  it('reads secrets from <NAME>_FILE and from the secrets directory, and refuses both forms at once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-secrets-'));
    fs.writeFileSync(path.join(dir, 'mfa_encryption_key'), `${'s'.repeat(44)}\n`);
    fs.writeFileSync(path.join(dir, 'jwt'), 'j'.repeat(50));
    const { values } = loadConfig(
      { DOCQA_SECRETS_DIR: dir, JWT_SECRET_KEY_FILE: path.join(dir, 'jwt') },
      { cwd: '/tmp' },
    );
    expect(values.MFA_ENCRYPTION_KEY).to.equal('s'.repeat(44));
    expect(values.JWT_SECRET_KEY).to.equal('j'.repeat(50));
    const message = failure({ ...secrets, JWT_SECRET_KEY_FILE: path.join(dir, 'jwt') });
    expect(message).to.include('JWT_SECRET_KEY and JWT_SECRET_KEY_FILE are both set');
  });

  it('requires what the chosen backends need', () => {
    const hosted = failure({ ...secrets, LLM_BACKEND: 'hosted' });
    expect(hosted).to.include('HOSTED_API_KEY is required').and.include('HOSTED_MODEL is required');
    const smtp = failure({ ...secrets, EMAIL_PROVIDER: 'smtp', SMTP_HOST: 'mail.local' });
    expect(smtp)
      .to.include('SMTP_PORT is required')
      .and.include('SMTP_FROM is required')
      .and.not.include('SMTP_HOST is required');
    expect(failure({ ...secrets, TLS_ENABLED: '1' })).to.include('SERVER_NAME is required');
  });

  it('refuses placeholder secrets in production only', () => {
    expect(loadConfig(secrets, { cwd: '/tmp' }).values.DEFAULT_ADMIN_PASSWORD).to.equal('changeme');
    expect(failure({ ...secrets, DOCQA_ENV: 'production' })).to.include(
      'DEFAULT_ADMIN_PASSWORD is the documented placeholder',
    );
  });

  it("refuses VECTORDB_API_KEY's placeholder in production only when VECTORDB_URL has no password of its own", () => {
    const production = { ...secrets, DOCQA_ENV: 'production', DEFAULT_ADMIN_PASSWORD: 'a-real-password-1' };
    const placeholder = 'VECTORDB_API_KEY is the placeholder';
    expect(failure({ ...production, VECTORDB_URL: 'postgres://docqa@vectors:5432/v' })).to.include(placeholder);
    expect(failure({ ...production, VECTORDB_URL: 'https://vectors.example' })).to.include(placeholder);
    const withPassword = { ...production, VECTORDB_URL: 'postgres://docqa:pw@vectors:5432/v' };
    expect(loadConfig(withPassword, { cwd: '/tmp' }).values.VECTORDB_URL).to.equal(withPassword.VECTORDB_URL);
    const keyed = { ...production, VECTORDB_URL: 'postgres://docqa@vectors:5432/v', VECTORDB_API_KEY: 'k' };
    expect(loadConfig(keyed, { cwd: '/tmp' }).values.VECTORDB_API_KEY).to.equal('k');
  });

  it('reads fallback OIDC providers and refuses a client secret as a plain variable', () => {
    const { oidcProviders } = loadConfig(
      {
        ...secrets,
        OIDC_PROVIDERS: 'Corp',
        OIDC_CORP_CLIENT_ID: 'docqa',
        OIDC_CORP_DISCOVERY_URL: 'https://idp.example/.well-known/openid-configuration',
        OIDC_CORP_REDIRECT_URI: 'https://docqa.example/api/auth/oidc/corp/callback',
        OIDC_CORP_ADMIN_GROUPS: 'admins, ops',
      },
      { cwd: '/tmp' },
    );
    expect(oidcProviders).to.have.length(1);
    expect(oidcProviders[0]).to.deep.include({
      name: 'corp',
      clientId: 'docqa',
      scopes: ['openid', 'email', 'profile'],
      adminGroups: ['admins', 'ops'],
    });
    const message = failure({ ...secrets, OIDC_PROVIDERS: 'corp', OIDC_CORP_CLIENT_SECRET: 'plain' });
    expect(message)
      .to.include('OIDC_CORP_CLIENT_ID is required')
      .and.include('OIDC_CORP_CLIENT_SECRET must not be a plain variable');
  });

  it('warns that EFFECTIVE_N_CTX is derived, and about unknown DOCQA_ variables', () => {
    const { warnings } = loadConfig({ ...secrets, EFFECTIVE_N_CTX: '4096', DOCQA_DATADIR: './x' }, { cwd: '/tmp' });
    expect(warnings.join('\n'))
      .to.include('EFFECTIVE_N_CTX is derived')
      .and.include('DOCQA_DATADIR is not a DocQA variable');
  });

  it('loads only a file named .env, with the real environment winning', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-env-'));
    fs.writeFileSync(path.join(dir, '.env'), 'N_THREADS=3\nN_CTX=2048\n');
    fs.writeFileSync(path.join(dir, 'production.env'), 'N_GPU_LAYERS=5\n');
    const env = readEnvironment({ ...secrets, N_CTX: '4096' }, dir);
    const { values } = loadConfig(env, { cwd: dir });
    expect(values.N_THREADS).to.equal(3);
    expect(values.N_CTX).to.equal(4096);
    expect(values.N_GPU_LAYERS).to.equal(0);
  });
});
