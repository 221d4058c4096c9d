import { assertEmailAddress } from '@docqa/plugin-api';
import type { EmailProvider } from '@docqa/plugin-api';
import type { SmtpEmailOptions } from './config.js';
import { sendFailure } from './send-failure.js';
import type { SmtpTransport } from './transport.js';

/** Sends each message through the SMTP transport, mapping every failure to DocqaError('unavailable'). */
export function createSmtpEmailProvider(transport: SmtpTransport, options: SmtpEmailOptions): EmailProvider {
  return {
    async send({ to, subject, text, html }) {
      assertEmailAddress(to);
      try {
        await transport.sendMail({ from: options.from, to, subject, text, ...(html === undefined ? {} : { html }) });
      } catch (error) {
        throw sendFailure(error, options);
      }
    },
  };
}
