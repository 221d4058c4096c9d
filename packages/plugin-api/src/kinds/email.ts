import { DocqaError } from '../errors.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailProvider {
  send(message: EmailMessage): Promise<void>;
}

/**
 * One bare address: `local@domain.tld`. No display name, no list, no whitespace — the recipient ends
 * up in an envelope and a header (or a log line an operator trusts), where a comma, angle bracket or
 * line break would add recipients or headers the caller never meant.
 */
const singleAddress = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;

/** Longest address SMTP can carry (RFC 5321: a 256-octet path less its angle brackets). */
const maxAddressLength = 254;

/** Every email provider checks its recipient with this before anything is sent. */
export function assertEmailAddress(to: string): void {
  if (typeof to === 'string' && to.length <= maxAddressLength && singleAddress.test(to)) return;
  const shown = JSON.stringify(String(to).slice(0, 100));
  throw new DocqaError(
    'validation_failed',
    `The recipient ${shown} is not one email address; give a single address such as name@example.com.`,
    {
      errors: [{ field: 'to', message: 'must be one email address' }],
    },
  );
}
