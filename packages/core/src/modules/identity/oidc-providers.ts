import crypto from 'node:crypto';
import { DocqaError, type Db } from '@docqa/plugin-api';
import type { OidcFallbackProvider } from '@docqa/plugin-api';
import type { SecretBox } from '../../crypto/index.js';

/** A provider as sign-in uses it: the secret is open, wherever the provider came from. */
export interface OidcProvider {
  /** null for a provider from the OIDC_* variables. */
  id: string | null;
  name: string;
  displayName: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  scopes: string[];
  adminGroups: string[];
  groupsClaim: string;
  enabled: boolean;
  source: 'stored' | 'environment';
}

/** A stored row as the admin API shows it: the secret only says whether one is set. */
export interface OidcProviderView {
  id: string;
  name: string;
  display_name: string;
  discovery_url: string;
  client_id: string;
  client_secret: '***' | null;
  redirect_uri: string;
  scopes: string;
  admin_groups: string[];
  groups_claim: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface OidcProviderFields {
  name: string;
  display_name: string;
  discovery_url: string;
  client_id: string;
  /** undefined keeps the stored secret (on update); null removes it. */
  client_secret?: string | null;
  redirect_uri: string;
  scopes: string;
  admin_groups: string[];
  groups_claim: string;
  enabled: boolean;
}

interface OidcProviderRow extends Omit<OidcProviderFields, 'client_secret'> {
  id: string;
  client_secret: string | null;
  created_at: string;
  updated_at: string;
}

// Binds a sealed client secret to its row: copied into another row, it does not open.
const sealedFor = (id: string) => `oidc-client:${id}`;

export function viewOf(row: OidcProviderRow): OidcProviderView {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    discovery_url: row.discovery_url,
    client_id: row.client_id,
    client_secret: row.client_secret ? '***' : null,
    redirect_uri: row.redirect_uri,
    scopes: row.scopes,
    admin_groups: row.admin_groups,
    groups_claim: row.groups_claim,
    enabled: row.enabled,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** A fallback provider has no display name of its own; its name, capitalised, reads well enough. */
export function fromFallback(provider: OidcFallbackProvider): OidcProvider {
  return {
    id: null,
    name: provider.name,
    displayName: provider.name.charAt(0).toUpperCase() + provider.name.slice(1),
    discoveryUrl: provider.discoveryUrl,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri: provider.redirectUri,
    scopes: provider.scopes,
    adminGroups: provider.adminGroups,
    groupsClaim: 'groups',
    enabled: true,
    source: 'environment',
  };
}

function conflictOnDuplicate(error: unknown, name: string): never {
  if ((error as { code?: string }).code === '23505')
    throw new DocqaError('conflict', `Another OIDC provider is already named "${name}".`);
  throw error;
}

/** SQL over oidc_provider; seals and opens client secrets so nothing above sees a sealed value. */
export class OidcProviderStore {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('select count(*) as n from oidc_provider');
    return Number(rows[0]?.n ?? 0);
  }

  async list(limit: number, offset: number): Promise<{ items: OidcProviderView[]; total: number }> {
    const { rows } = await this.db.query<OidcProviderRow>(
      'select * from oidc_provider order by name limit $1 offset $2',
      [limit, offset],
    );
    return { items: rows.map(viewOf), total: await this.count() };
  }

  /** Names for the sign-in page; no secret is opened for them. */
  async enabledNames(): Promise<Array<{ name: string; displayName: string }>> {
    const { rows } = await this.db.query<{ name: string; display_name: string }>(
      'select name, display_name from oidc_provider where enabled order by name',
    );
    return rows.map((row) => ({ name: row.name, displayName: row.display_name }));
  }

  async byName(name: string): Promise<OidcProvider | null> {
    const { rows } = await this.db.query<OidcProviderRow>('select * from oidc_provider where name = $1', [name]);
    return rows[0] ? this.#open(rows[0]) : null;
  }

  async byId(id: string): Promise<OidcProviderView | null> {
    const { rows } = await this.db.query<OidcProviderRow>('select * from oidc_provider where id = $1', [id]);
    return rows[0] ? viewOf(rows[0]) : null;
  }

  async create(fields: OidcProviderFields): Promise<OidcProviderView> {
    const id = crypto.randomUUID();
    const secret = fields.client_secret ? this.box.seal(fields.client_secret, sealedFor(id)) : null;
    try {
      const { rows } = await this.db.query<OidcProviderRow>(
        `insert into oidc_provider (id, name, display_name, discovery_url, client_id, client_secret, redirect_uri, scopes, admin_groups, groups_claim, enabled)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning *`,
        [
          id,
          fields.name,
          fields.display_name,
          fields.discovery_url,
          fields.client_id,
          secret,
          fields.redirect_uri,
          fields.scopes,
          JSON.stringify(fields.admin_groups),
          fields.groups_claim,
          fields.enabled,
        ],
      );
      return viewOf(rows[0] as OidcProviderRow);
    } catch (error) {
      conflictOnDuplicate(error, fields.name);
    }
  }

  /** Changes the given fields; the name stays, because users are linked to it. */
  async update(id: string, changes: Partial<Omit<OidcProviderFields, 'name'>>): Promise<OidcProviderView> {
    const values: unknown[] = [id];
    const sets: string[] = [];
    for (const [column, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (column === 'client_secret')
        values.push(value === null ? null : this.box.seal(value as string, sealedFor(id)));
      else values.push(column === 'admin_groups' ? JSON.stringify(value) : value);
      sets.push(`${column} = $${values.length}`);
    }
    sets.push('updated_at = now()');
    const { rows } = await this.db.query<OidcProviderRow>(
      `update oidc_provider set ${sets.join(', ')} where id = $1 returning *`,
      values,
    );
    if (!rows[0]) throw new DocqaError('not_found', `OIDC provider ${id} was not found.`);
    return viewOf(rows[0]);
  }

  async delete(id: string): Promise<OidcProviderView | null> {
    const { rows } = await this.db.query<OidcProviderRow>('delete from oidc_provider where id = $1 returning *', [id]);
    return rows[0] ? viewOf(rows[0]) : null;
  }

  #open(row: OidcProviderRow): OidcProvider {
    return {
      id: row.id,
      name: row.name,
      displayName: row.display_name,
      discoveryUrl: row.discovery_url,
      clientId: row.client_id,
      clientSecret: row.client_secret ? this.box.open(row.client_secret, sealedFor(row.id)) : undefined,
      redirectUri: row.redirect_uri,
      scopes: row.scopes.split(/\s+/).filter(Boolean),
      adminGroups: row.admin_groups,
      groupsClaim: row.groups_claim,
      enabled: row.enabled,
      source: 'stored',
    };
  }
}
