import type {
  AuditService,
  ConfigService,
  Db,
  EmailProvider,
  Logger,
  OutboundPolicy,
  SettingsService,
} from '@docqa/plugin-api';

/** The configuration identity reads, typed once when the module starts. */
export interface IdentityConfig {
  JWT_SECRET_KEY: string;
  JWT_ALGORITHM: 'HS256' | 'HS384' | 'HS512';
  MFA_ENCRYPTION_KEY: string;
  PUBLIC_URL: string;
  AUTH_REQUIRE_EMAIL: boolean;
  DEFAULT_ADMIN_USER: string;
  DEFAULT_ADMIN_PASSWORD: string;
  DEFAULT_ADMIN_EMAIL: string | undefined;
  SIGN_IN_ACCOUNT_FAILURES: number;
  SIGN_IN_ACCOUNT_TOTAL_FAILURES: number;
  SIGN_IN_CLIENT_FAILURES: number;
  SIGN_IN_MAX_WAIT_SECONDS: number;
  SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: number;
  SIGN_IN_UNSETTLED_SECONDS: number;
}

/** What identity's services work with: its dependencies, resolved once. */
export interface IdentityEnvironment {
  db: Db;
  settings: SettingsService;
  audit: AuditService;
  logger: Logger;
  /** Absent when no email plugin is configured: password reset then says so. */
  email: EmailProvider | undefined;
  outbound: OutboundPolicy;
  config: IdentityConfig;
  /** The start-up configuration itself, for the operator's OIDC providers and production mode. */
  startup: ConfigService;
}

export function identityConfig(config: ConfigService): IdentityConfig {
  const text = (name: string) => String(config.get(name));
  const optionalText = (name: string) => (config.get(name) === undefined ? undefined : text(name));
  return {
    JWT_SECRET_KEY: text('JWT_SECRET_KEY'),
    JWT_ALGORITHM: text('JWT_ALGORITHM') as IdentityConfig['JWT_ALGORITHM'],
    MFA_ENCRYPTION_KEY: text('MFA_ENCRYPTION_KEY'),
    PUBLIC_URL: text('PUBLIC_URL'),
    AUTH_REQUIRE_EMAIL: config.get('AUTH_REQUIRE_EMAIL') === true,
    DEFAULT_ADMIN_USER: text('DEFAULT_ADMIN_USER'),
    DEFAULT_ADMIN_PASSWORD: text('DEFAULT_ADMIN_PASSWORD'),
    DEFAULT_ADMIN_EMAIL: optionalText('DEFAULT_ADMIN_EMAIL'),
    SIGN_IN_ACCOUNT_FAILURES: Number(config.get('SIGN_IN_ACCOUNT_FAILURES')),
    SIGN_IN_ACCOUNT_TOTAL_FAILURES: Number(config.get('SIGN_IN_ACCOUNT_TOTAL_FAILURES')),
    SIGN_IN_CLIENT_FAILURES: Number(config.get('SIGN_IN_CLIENT_FAILURES')),
    SIGN_IN_MAX_WAIT_SECONDS: Number(config.get('SIGN_IN_MAX_WAIT_SECONDS')),
    SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: Number(config.get('SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS')),
    SIGN_IN_UNSETTLED_SECONDS: Number(config.get('SIGN_IN_UNSETTLED_SECONDS')),
  };
}
