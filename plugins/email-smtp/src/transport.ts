import nodemailer from 'nodemailer';
import type { SmtpEmailOptions } from './config.js';

/**
 * Seconds an open connection may sit silent mid-conversation. nodemailer waits ten minutes by
 * default; a password reset request waits on this send, so a hung server must fail it sooner.
 */
const socketTimeoutSeconds = 60;

/**
 * A nodemailer SMTP transport for these options. It opens a connection per message (no pool): mail
 * here is rare (password resets), and nothing is held open against a server that restarts.
 * Nothing is sent or checked over the network here; the server may come up after DocQA.
 */
export function createSmtpTransport(options: SmtpEmailOptions) {
  const timeoutMs = options.connectionTimeoutSeconds * 1000;
  return nodemailer.createTransport({
    host: options.host,
    port: options.port,
    // tls: TLS from the first byte. startTls: plain connect, then STARTTLS, or fail if not offered.
    // Neither: nodemailer still upgrades when the server offers STARTTLS (opportunistic).
    secure: options.tls,
    requireTLS: options.startTls,
    auth: options.username === undefined ? undefined : { user: options.username, pass: options.password },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: Math.max(socketTimeoutSeconds * 1000, timeoutMs),
    tls: { rejectUnauthorized: options.rejectUnauthorized },
    // nodemailer's own logging could print the AUTH exchange; DocQA logs through the kernel only.
    logger: false,
    debug: false,
  });
}

export type SmtpTransport = ReturnType<typeof createSmtpTransport>;
