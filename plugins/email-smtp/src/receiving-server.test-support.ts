import net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { generate } from 'selfsigned';
import { readMessage } from './mime-reader.test-support.js';

/** How the test server expects clients: clear text, clear text upgraded by STARTTLS, or TLS from the start. */
export type ServerSecurity = 'plain' | 'starttls' | 'tls';

export interface ReceivedMessage {
  /** The envelope recipient: where the server would deliver. */
  to: string;
  subject: string;
  text: string;
  headers: Map<string, string>;
  /** Whether the message came over TLS (implicit or after STARTTLS). */
  secure: boolean;
  /** The user the client authenticated as, if any. */
  user: string | undefined;
}

export interface ReceivingServer {
  port: number;
  /** Every message accepted so far, in order. */
  messages: ReceivedMessage[];
  /** AUTH attempts, successful or not, in order. */
  authAttempts: Array<{ username: string; accepted: boolean }>;
  /** Connections that ended in an error on the server's side. */
  connectionErrors: Error[];
  close(): Promise<void>;
}

export interface TestCertificate {
  key: string;
  cert: string;
}

/** A self-signed certificate for localhost and 127.0.0.1; clients must turn verification off. */
export async function makeTestCertificate(): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * A real SMTP server (smtp-server) on a free loopback port that keeps what it receives. With
 * `credentials` it requires AUTH and checks them; without, it offers no AUTH at all.
 */
export async function startReceivingServer(options: {
  security: ServerSecurity;
  credentials?: { username: string; password: string };
  certificate?: TestCertificate;
}): Promise<ReceivingServer> {
  const { security, credentials, certificate } = options;
  if (security !== 'plain' && !certificate) throw new Error(`a ${security} server needs a certificate`);
  const messages: ReceivedMessage[] = [];
  const authAttempts: ReceivingServer['authAttempts'] = [];

  const serverOptions: SMTPServerOptions = {
    secure: security === 'tls',
    ...(security === 'plain' ? {} : { key: certificate?.key, cert: certificate?.cert }),
    // A plain server refuses STARTTLS (hiding it is not enough: a client requiring TLS tries anyway).
    disabledCommands: [...(security === 'plain' ? ['STARTTLS'] : []), ...(credentials === undefined ? ['AUTH'] : [])],
    // smtp-server refuses AUTH over clear text unless told; a plain server with credentials allows it.
    allowInsecureAuth: security === 'plain',
    authOptional: credentials === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      const accepted = auth.username === credentials?.username && auth.password === credentials?.password;
      authAttempts.push({ username: auth.username ?? '', accepted });
      if (accepted) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const read = readMessage(Buffer.concat(chunks));
        messages.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address).join(', '),
          subject: read.headers.get('subject') ?? '',
          text: read.text,
          headers: read.headers,
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        callback();
      });
    },
  };

  const server = new SMTPServer(serverOptions);
  // A client that drops the connection (a refused certificate, a timeout) is an error event here;
  // the tests look at what the client saw, so the server only keeps them.
  const connectionErrors: Error[] = [];
  server.on('error', (error) => connectionErrors.push(error));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    port,
    messages,
    authAttempts,
    connectionErrors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening: bound once to learn a free number, then released. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A server that accepts connections and never says a word, like a hung mail server. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
