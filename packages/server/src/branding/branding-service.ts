import { z } from 'zod';
import { DocqaError, type Db } from '@docqa/plugin-api';
import type { NormalisedLogo } from './logo.js';

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1f6feb');

/** What an admin may set; every field has a default, so a PUT of `{}` restores DocQA's own look. */
export const brandingSchema = z.strictObject({
  name: z.string().trim().min(1).max(80).default('DocQA').describe('Product name shown in the UI and emails.'),
  colors: z
    .strictObject({
      primary: colour.default('#1f6feb'),
      accent: colour.default('#8250df'),
      background: colour.default('#ffffff'),
      text: colour.default('#1f2328'),
    })
    .default({ primary: '#1f6feb', accent: '#8250df', background: '#ffffff', text: '#1f2328' }),
  texts: z
    .strictObject({
      welcome: z.string().max(500).default('Ask a question about your documents.'),
      chat_placeholder: z.string().max(120).default('Ask a question…'),
      footer: z.string().max(300).default(''),
      support_email: z.union([z.email(), z.literal('')]).default(''),
    })
    .default({ welcome: 'Ask a question about your documents.', chat_placeholder: 'Ask a question…', footer: '', support_email: '' }),
});

export type Branding = z.output<typeof brandingSchema>;

export interface StoredLogo {
  mediaType: string;
  bytes: Buffer;
  sha256: string;
  updatedAt: string;
}

export class BrandingService {
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
    return { ...branding, logo_url: logoHash ? `/api/branding/logo?v=${logoHash.slice(0, 16)}` : null, updated_at: row ? new Date(row.updated_at).toISOString() : null };
  }

  async put(input: Branding): Promise<void> {
    await this.db.query(
      `insert into branding (singleton, settings, updated_at) values (true, $1, now())
       on conflict (singleton) do update set settings = excluded.settings, updated_at = now()`,
      [JSON.stringify(input)],
    );
  }

  async logo(): Promise<StoredLogo> {
    const { rows } = await this.db.query<{ media_type: string; bytes: Buffer | Uint8Array; sha256: string; updated_at: string }>('select media_type, bytes, sha256, updated_at from branding_logo');
    const row = rows[0];
    if (!row) throw new DocqaError('not_found', 'No logo has been uploaded.');
    return { mediaType: row.media_type, bytes: Buffer.from(row.bytes), sha256: row.sha256, updatedAt: new Date(row.updated_at).toISOString() };
  }

  /** Replaces the logo in one statement: a failed upload never reaches here, so the old logo stays. */
  async putLogo(logo: NormalisedLogo): Promise<void> {
    await this.db.query(
      `insert into branding_logo (singleton, media_type, bytes, sha256, width, height, updated_at) values (true, $1, $2, $3, $4, $5, now())
       on conflict (singleton) do update set media_type = excluded.media_type, bytes = excluded.bytes, sha256 = excluded.sha256, width = excluded.width, height = excluded.height, updated_at = now()`,
      [logo.mediaType, logo.bytes, logo.sha256, logo.width, logo.height],
    );
  }
}
