import { z } from 'zod';

/**
 * Options of the SMTP provider. Every rule zod can check is here, so a bad combination stops
 * start-up with a message naming the instance instead of failing the first password reset.
 */
export const smtpEmailOptionsSchema = z
  .strictObject({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    /** The sender address (`From:` and the envelope sender). */
    from: z.email(),
    username: z.string().min(1).optional(),
    /** Never logged; comes from the smtp_password secret through SMTP_PASSWORD. */
    password: z.string().min(1).optional(),
    /** Connect in clear and upgrade with STARTTLS, refusing to go on when the server does not offer it. */
    startTls: z.boolean().default(false),
    /** Implicit TLS from the first byte (usually port 465). */
    tls: z.boolean().default(false),
    /** How long connecting and waiting for the server's greeting may take, each. */
    connectionTimeoutSeconds: z.number().int().min(1).max(300).default(10),
    /** Verify the server's certificate; turn off only for a test server with a self-signed one. */
    rejectUnauthorized: z.boolean().default(true),
  })
  .refine((options) => !(options.startTls && options.tls), {
    message:
      'tls and startTls exclude each other: use tls for implicit TLS (port 465), ' +
      'startTls to upgrade a clear connection (port 587)',
    path: ['tls'],
  })
  .refine((options) => options.password === undefined || options.username !== undefined, {
    message: 'a password needs a username',
    path: ['username'],
  })
  .refine((options) => options.username === undefined || options.password !== undefined, {
    // Without this, a missing smtp_password secret would only show at the first send, as EAUTH.
    message: 'a username needs a password (the smtp_password secret or SMTP_PASSWORD)',
    path: ['password'],
  });

export type SmtpEmailOptions = z.output<typeof smtpEmailOptionsSchema>;
export type SmtpEmailOptionsInput = z.input<typeof smtpEmailOptionsSchema>;

/**
 * The options from DocQA's SMTP_* configuration variables, for the preset that picks this plugin
 * when EMAIL_PROVIDER=smtp. The kernel has parsed them already (SMTP_PASSWORD resolved from
 * SMTP_PASSWORD_FILE or the smtp_password secret); unset ones are left out so defaults apply.
 */
export function smtpOptionsFromVariables(variable: (name: string) => unknown): Record<string, unknown> {
  const fromVariables: Record<string, string> = {
    host: 'SMTP_HOST',
    port: 'SMTP_PORT',
    from: 'SMTP_FROM',
    username: 'SMTP_USERNAME',
    password: 'SMTP_PASSWORD',
    startTls: 'SMTP_STARTTLS',
    tls: 'SMTP_TLS',
  };
  const options: Record<string, unknown> = {};
  for (const [option, name] of Object.entries(fromVariables)) {
    const value = variable(name);
    if (value !== undefined) options[option] = value;
  }
  return options;
}
