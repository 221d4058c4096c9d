import crypto from 'node:crypto';
import { DocqaError, pageTotal, type ConnectorProvider, type Db } from '@docqa/plugin-api';
import { createSecretBox, type SecretBox } from '../../crypto/index.js';
import type { SourceInput, SourceKind, SourceRow, SourceService, SourceView } from './contract.js';

const sealedFor = (id: string) => `source:${id}`;
const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Connectors and integrations as records: a plugin type, its validated config, secrets sealed with
 * MFA_ENCRYPTION_KEY and shown as "***", a sync cursor and the outcome of the last sync.
 */
export class StoredSources implements SourceService {
  readonly #box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly connectors: readonly ConnectorProvider[],
    secretKey: string,
  ) {
    this.#box = createSecretBox(secretKey);
  }

  provider(kind: SourceKind, type: string): ConnectorProvider {
    const providers = this.connectors.filter((candidate) => candidate.sourceKind === kind);
    const provider = providers.find((candidate) => candidate.type === type);
    if (!provider) {
      throw new DocqaError(
        'validation_failed',
        `There is no ${kind} type "${type}"; available: ${providers.map((p) => p.type).join(', ') || 'none'}.`,
        { errors: [{ field: 'body.type', message: `is not one of ${providers.map((p) => p.type).join(', ')}` }] },
      );
    }
    return provider;
  }

  /** Validates a config with the plugin's schema and splits off the secret fields. */
  #validate(
    kind: SourceKind,
    input: SourceInput,
    previousSecrets: Record<string, unknown>,
  ): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
    const provider = this.provider(kind, input.type);
    // A secret left out, or "***" (what a read answered), keeps the stored one, so a client can send a
    // record back unchanged or change other fields without knowing it; an explicit null clears it.
    const merged = { ...input.config };
    for (const field of provider.secretFields) {
      if (!(field in merged) || merged[field] === '***') merged[field] = previousSecrets[field];
      else if (merged[field] === null) delete merged[field];
    }
    const parsed = provider.sourceConfigSchema.safeParse(merged);
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) => ({
        field: ['body', 'config', ...issue.path.map(String)].join('.'),
        message: issue.message,
      }));
      throw new DocqaError(
        'validation_failed',
        `The ${input.type} configuration is not valid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
        { errors },
      );
    }
    const all = parsed.data as Record<string, unknown>;
    const secrets = Object.fromEntries(
      provider.secretFields.filter((field) => all[field] !== undefined).map((field) => [field, all[field]]),
    );
    const config = Object.fromEntries(Object.entries(all).filter(([field]) => !provider.secretFields.includes(field)));
    return { config, secrets };
  }

  async create(kind: SourceKind, input: SourceInput): Promise<SourceRow> {
    const id = crypto.randomUUID();
    const { config, secrets } = this.#validate(kind, input, {});
    await this.#checkOpens(kind, input.type, { ...config, ...secrets }, id);
    try {
      const { rows } = await this.db.query<SourceRow>(
        'insert into source (id, kind, type, name, config, secrets, enabled) ' +
          'values ($1, $2, $3, $4, $5, $6, $7) returning *',
        [
          id,
          kind,
          input.type,
          input.name,
          JSON.stringify(config),
          Object.keys(secrets).length ? this.#box.seal(JSON.stringify(secrets), sealedFor(id)) : null,
          input.enabled,
        ],
      );
      return rows[0] as SourceRow;
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw new DocqaError('conflict', `Another ${kind} is named "${input.name}".`);
      throw error;
    }
  }

  async update(kind: SourceKind, id: string, input: SourceInput): Promise<SourceRow> {
    const existing = await this.get(kind, id);
    if (existing.type !== input.type)
      throw new DocqaError('validation_failed', 'The type of a source cannot change; create another one.', {
        errors: [{ field: 'body.type', message: `must stay ${existing.type}` }],
      });
    const { config, secrets } = this.#validate(kind, input, this.secretsOf(existing));
    await this.#checkOpens(kind, input.type, { ...config, ...secrets }, id);
    try {
      const { rows } = await this.db.query<SourceRow>(
        // A changed config starts the next sync from scratch.
        'update source set name = $3, config = $4, secrets = $5, enabled = $6, cursor = case when config = ' +
          '$4::jsonb then cursor else null end, updated_at = now() where id = $1 and kind = $2 returning *',
        [
          id,
          kind,
          input.name,
          JSON.stringify(config),
          Object.keys(secrets).length ? this.#box.seal(JSON.stringify(secrets), sealedFor(id)) : null,
          input.enabled,
        ],
      );
      return rows[0] as SourceRow;
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw new DocqaError('conflict', `Another ${kind} is named "${input.name}".`);
      throw error;
    }
  }

  /** A config must also open: the plugin checks what a schema cannot (paths inside allowed roots). */
  async #checkOpens(kind: SourceKind, type: string, config: Record<string, unknown>, id: string): Promise<void> {
    let source;
    try {
      source = await this.provider(kind, type).open(config, { sourceId: id });
    } catch (error) {
      // A plugin names fields of its config (`path`); the API names them as sent (`body.config.path`).
      if (!DocqaError.is(error) || error.code !== 'validation_failed' || !error.errors) throw error;
      const errors = error.errors.map((e) => ({
        ...e,
        field: e.field.startsWith('body.') ? e.field : `body.config.${e.field}`,
      }));
      throw new DocqaError('validation_failed', error.message, { errors, extra: error.extra, cause: error });
    }
    await source.close?.();
  }

  async get(kind: SourceKind, id: string): Promise<SourceRow> {
    const { rows } = await this.db.query<SourceRow>('select * from source where id = $1 and kind = $2', [id, kind]);
    if (!rows[0])
      throw new DocqaError('not_found', `${kind === 'connector' ? 'Connector' : 'Integration'} ${id} was not found.`);
    return rows[0];
  }

  /** A connector or an integration by id, or null. */
  async byId(id: string): Promise<SourceRow | null> {
    const { rows } = await this.db.query<SourceRow>('select * from source where id = $1', [id]);
    return rows[0] ?? null;
  }

  async list(kind: SourceKind, limit: number, offset: number): Promise<{ items: SourceRow[]; total: number }> {
    const sql =
      'select *, count(*) over () as total from source where kind = $1 order by lower(name) limit $2 offset $3';
    const { rows } = await this.db.query<SourceRow & { total: string }>(sql, [kind, limit, offset]);
    const firstRow = async () => (await this.db.query<SourceRow & { total: string }>(sql, [kind, 1, 0])).rows;
    return { items: rows, total: await pageTotal(rows, offset, (row) => row.total, firstRow) };
  }

  async enabled(): Promise<SourceRow[]> {
    const { rows } = await this.db.query<SourceRow>('select * from source where enabled order by kind, lower(name)');
    return rows;
  }

  async delete(kind: SourceKind, id: string): Promise<SourceRow> {
    const source = await this.get(kind, id);
    await this.db.query('delete from source where id = $1', [id]);
    return source;
  }

  secretsOf(row: SourceRow): Record<string, unknown> {
    return row.secrets ? (JSON.parse(this.#box.open(row.secrets, sealedFor(row.id))) as Record<string, unknown>) : {};
  }

  /** The full config a plugin opens with: stored fields and unsealed secrets. */
  fullConfig(row: SourceRow): Record<string, unknown> {
    return { ...row.config, ...this.secretsOf(row) };
  }

  async documentCount(id: string): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('select count(*) as n from document where source_id = $1', [
      id,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  /** The record the API answers: secrets as "***". */
  async present(row: SourceRow): Promise<SourceView> {
    const provider = this.connectors.find(
      (candidate) => candidate.type === row.type && candidate.sourceKind === row.kind,
    );
    const secrets = Object.fromEntries(
      (provider?.secretFields ?? []).filter((field) => field in this.secretsOf(row)).map((field) => [field, '***']),
    );
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      config: { ...row.config, ...secrets },
      enabled: row.enabled,
      last_sync_at: iso(row.last_sync_at),
      last_sync_status: row.last_sync_status,
      last_error: row.last_error,
      document_count: await this.documentCount(row.id),
      created_at: iso(row.created_at) as string,
      updated_at: iso(row.updated_at) as string,
    };
  }
}
