import type { ModuleMigration } from '@docqa/plugin-api';
import { apiKeyMigrations } from './api-keys-schema.js';

/** Users, their sessions and one-time tokens, and their API keys. */
export const identityMigrations: ModuleMigration[] = [
  {
    name: '0001_identity',
    up: [
      `create table app_user (
        id uuid primary key,
        username text not null,
        email text null,
        password_hash text null,
        role text not null check (role in ('admin', 'editor', 'viewer')),
        token_version integer not null default 0,
        mfa_secret text null,
        mfa_enabled boolean not null default false,
        mfa_last_counter bigint null,
        mfa_recovery_hashes jsonb not null default '[]',
        sso_provider text null,
        sso_subject text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      'create unique index app_user_username_key on app_user (lower(username))',
      'create unique index app_user_email_key on app_user (lower(email)) where email is not null',
      'create unique index app_user_sso_key on app_user (sso_provider, sso_subject) where sso_provider is not null',
      // One row per refresh token handed out; a family is one sign-in and its rotations.
      `create table refresh_token (
        jti uuid primary key,
        user_id uuid not null references app_user (id) on delete cascade,
        family_id uuid not null,
        expires_at timestamptz not null,
        used_at timestamptz null,
        revoked_at timestamptz null,
        created_at timestamptz not null default now()
      )`,
      'create index refresh_token_family on refresh_token (family_id)',
      'create index refresh_token_user on refresh_token (user_id)',
      // Only the hash of a reset token is stored: a database leak does not hand out resets.
      `create table password_reset_token (
        token_hash text primary key,
        user_id uuid not null references app_user (id) on delete cascade,
        expires_at timestamptz not null,
        used_at timestamptz null,
        created_at timestamptz not null default now()
      )`,
      // Single-use tickets between the password step and the TOTP step of a login.
      `create table mfa_challenge (
        jti uuid primary key,
        user_id uuid not null references app_user (id) on delete cascade,
        expires_at timestamptz not null,
        used_at timestamptz null
      )`,
    ],
    down: [
      'drop table mfa_challenge',
      'drop table password_reset_token',
      'drop table refresh_token',
      'drop table app_user',
    ],
  },
  {
    name: '0002_oidc',
    up: [
      // Single sign-on providers managed by admins; client_secret is sealed with MFA_ENCRYPTION_KEY
      // under the associated data 'oidc-client:<id>', so it only opens for its own row.
      `create table oidc_provider (
        id uuid primary key,
        name text not null unique check (name ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
        display_name text not null,
        discovery_url text not null,
        client_id text not null,
        client_secret text null,
        redirect_uri text not null,
        scopes text not null default 'openid email profile',
        admin_groups jsonb not null default '[]',
        groups_claim text not null default 'groups',
        enabled boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      // One row per started sign-in, consumed once by the callback. Only the state's hash is the
      // key, and the PKCE verifier is sealed: a database leak does not let anyone finish a sign-in.
      `create table oidc_login_state (
        state_hash text primary key,
        provider_name text not null,
        code_verifier text not null,
        nonce text not null,
        return_to text null,
        expires_at timestamptz not null
      )`,
      'create index oidc_login_state_expires on oidc_login_state (expires_at)',
    ],
    down: ['drop table oidc_login_state', 'drop table oidc_provider'],
  },
  // Named by when it was added: 0017_api_keys runs after 0002 on a new database, and as pending on
  // an older one (migrations are tracked by name).
  ...apiKeyMigrations,
];
