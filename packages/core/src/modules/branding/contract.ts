import { z } from 'zod';
import { createToken, DocqaError } from '@docqa/plugin-api';

// What other code may know of the branding module: its token, its service and the shapes it speaks in.

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
    .default({
      welcome: 'Ask a question about your documents.',
      chat_placeholder: 'Ask a question…',
      footer: '',
      support_email: '',
    }),
});

export type Branding = z.output<typeof brandingSchema>;

export interface StoredLogo {
  mediaType: string;
  bytes: Buffer;
  sha256: string;
  updatedAt: string;
}

/** A logo as stored, as the API answers it. */
export interface StoredLogoInfo {
  media_type: string;
  width: number;
  height: number;
  sha256: string;
  /** Changes whenever the logo changes. */
  logo_url: string;
}

/** The largest logo file accepted; a logo is a small picture, not a photograph archive. */
export const maxLogoBytes = 2 * 1024 * 1024;

export function logoTooLarge(bytes: number): DocqaError {
  const size = bytes > 0 ? ` (${bytes} bytes)` : '';
  return new DocqaError('payload_too_large', `The logo is larger than ${maxLogoBytes / 1024 / 1024} MB${size}.`, {
    extra: { limit: maxLogoBytes },
  });
}

export interface BrandingService {
  /** The branding in effect (DocQA's defaults until an admin sets it), with the logo's address. */
  get(): Promise<Branding & { logo_url: string | null; updated_at: string | null }>;
  put(branding: Branding): Promise<void>;
  /** The stored logo; `not_found` until one is uploaded. */
  logo(): Promise<StoredLogo>;
  /** Checks, re-encodes and stores an uploaded image (PNG, JPEG, WebP, or a self-contained SVG). */
  replaceLogo(upload: Buffer): Promise<StoredLogoInfo>;
}

export const brandingTokens = {
  service: createToken<BrandingService>('branding.service'),
};
