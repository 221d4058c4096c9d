import { DocqaError, type Db } from '@docqa/plugin-api';
import {
  brandingSchema,
  type Branding,
  type BrandingService,
  type StoredLogo,
  type StoredLogoInfo,
} from './contract.js';
import { normaliseLogo } from './logo.js';

/** Branding and its logo, one row each in the database so that every replica serves the same. */
export class BrandingStore implements BrandingService {
  constructor(private readonly db: Db) {}

  async get(): Promise<Branding & { logo_url: string | null; updated_at: string | null }> {
    const [settings, logo] = await Promise.all([
      this.db.query<{ settings: unknown; updated_at: string }>('select settings, updated_at from branding'),
      this.db.query<{ sha256: string }>('select sha256 from branding_logo'),
    ]);
    const row = settings.rows[0];
    // Stored settings are parsed again so fields added in later versions get their defaults.
    const branding = brandingSchema.parse(row?.settings ?? {});
    const logoHash = logo.rows[0]?.sha256;
    return {
      ...branding,
      logo_url: logoHash ? logoUrl(logoHash) : null,
      updated_at: row ? new Date(row.updated_at).toISOString() : null,
    };
  }

  async put(input: Branding): Promise<void> {
    await this.db.query(
      `insert into branding (singleton, settings, updated_at) values (true, $1, now())
       on conflict (singleton) do update set settings = excluded.settings, updated_at = now()`,
      [JSON.stringify(input)],
    );
  }

  async logo(): Promise<StoredLogo> {
    const { rows } = await this.db.query<{
      media_type: string;
      bytes: Buffer | Uint8Array;
      sha256: string;
      updated_at: string;
    }>('select media_type, bytes, sha256, updated_at from branding_logo');
    const row = rows[0];
    if (!row) throw new DocqaError('not_found', 'No logo has been uploaded.');
    return {
      mediaType: row.media_type,
      bytes: Buffer.from(row.bytes),
      sha256: row.sha256,
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /**
   * Checks and re-encodes the logo, then replaces the stored one in one statement: a refused logo
   * never reaches the database, so the old one stays.
   */
  async replaceLogo(upload: Buffer): Promise<StoredLogoInfo> {
    const logo = await normaliseLogo(upload);
    await this.db.query(
      `insert into branding_logo (singleton, media_type, bytes, sha256, width, height, updated_at) values (true, $1,
        $2, $3, $4, $5, now())
       on conflict (singleton) do update set media_type = excluded.media_type, bytes = excluded.bytes,
         sha256 = excluded.sha256, width = excluded.width, height = excluded.height, updated_at = now()`,
      [logo.mediaType, logo.bytes, logo.sha256, logo.width, logo.height],
    );
    return {
      media_type: logo.mediaType,
      width: logo.width,
      height: logo.height,
      sha256: logo.sha256,
      logo_url: logoUrl(logo.sha256),
    };
  }
}

/** Changes with the logo, so browsers may cache it for long. */
const logoUrl = (sha256: string) => `/api/branding/logo?v=${sha256.slice(0, 16)}`;
