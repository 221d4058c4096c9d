import { DocqaError } from '@docqa/plugin-api';

/** What a nodemailer failure carries: `code` names the stage (EAUTH, ECONNECTION, ETIMEDOUT, ETLS, ...). */
interface MailerError {
  code?: unknown;
  message?: unknown;
}

/** A sentence per stage that tells the operator where to look; the server's own words follow it. */
const reasonByCode: Record<string, string> = {
  EAUTH: 'authentication failed (check the username and the smtp_password secret)',
  ECONNECTION: 'the connection failed (check host, port and whether the server speaks TLS or STARTTLS there)',
  ETIMEDOUT: 'no answer in time (check host, port and firewalls)',
  ESOCKET: 'the connection failed (check host, port, tls, startTls and the server certificate)',
  ETLS: 'the TLS handshake or STARTTLS upgrade failed (check tls, startTls and the certificate)',
  EDNS: 'the host name did not resolve',
  EENVELOPE: 'the server refused the sender or the recipient',
  EMESSAGE: 'the server refused the message',
};

/**
 * Turns a failed send into DocqaError('unavailable'). The password, and the base64 forms AUTH PLAIN
 * and AUTH LOGIN send it in, are cut out of every text the error carries — a server may echo a
 * command back — and the original error is not kept as `cause`, since error serialisers walk into
 * it and it holds the connection's state.
 */
export function sendFailure(
  error: unknown,
  server: { host: string; port: number; username?: string; password?: string },
): DocqaError {
  const mailerError = (typeof error === 'object' && error !== null ? error : {}) as MailerError;
  const code = typeof mailerError.code === 'string' ? mailerError.code : undefined;
  const detail = redactPassword(String(mailerError.message ?? error), server);
  const reason = code && reasonByCode[code] ? `${reasonByCode[code]}: ${detail}` : detail;
  const cause = Object.assign(new Error(detail), code ? { code } : {});
  return new DocqaError(
    'unavailable',
    `The mail server at ${server.host}:${server.port} refused or could not be reached: ${reason}`,
    {
      cause,
    },
  );
}

function redactPassword(text: string, server: { username?: string; password?: string }): string {
  if (!server.password) return text;
  const forms = [
    server.password,
    Buffer.from(server.password).toString('base64'),
    Buffer.from(`\u0000${server.username ?? ''}\u0000${server.password}`).toString('base64'),
  ];
  return forms.reduce((redacted, form) => redacted.split(form).join('[redacted]'), text);
}
