import { definePlugin } from '@docqa/plugin-api';
import { smtpEmailOptionsSchema } from './config.js';

export { smtpOptionsFromVariables, type SmtpEmailOptions, type SmtpEmailOptionsInput } from './config.js';

/** Email through an SMTP server (EMAIL_PROVIDER=smtp): password reset links reach the user's inbox. */
export default definePlugin({
  apiVersion: 1,
  kind: 'email',
  id: 'email-smtp',
  description: 'Sends emails (password reset links) through an SMTP server.',
  configSchema: smtpEmailOptionsSchema,
  deps: {},
  async init({ options, logger, onStop }) {
    // Imported here, not above: nodemailer holds about 16 MB of resident memory, which a process
    // sending no email through SMTP should not pay for.
    const { createSmtpEmailProvider } = await import('./provider.js');
    const { createSmtpTransport } = await import('./transport.js');
    const transport = createSmtpTransport(options);
    onStop(() => transport.close());
    const security = options.tls ? 'implicit TLS' : options.startTls ? 'STARTTLS required' : 'STARTTLS when offered';
    // Options are logged by name, never as an object: the password must not reach the log.
    logger.info(
      {
        host: options.host,
        port: options.port,
        from: options.from,
        security,
        authenticated: options.username !== undefined,
      },
      'SMTP email provider ready; the server is first contacted at the first send',
    );
    return createSmtpEmailProvider(transport, options);
  },
});
