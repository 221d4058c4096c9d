/*
 * Test fixtures shared by this package's tests (no tests of its own: named *.test.ts so that it is
 * left out of the published package, like the tests that use it).
 *
 * The store is a real S3-compatible server, s3rver, on 127.0.0.1 with a fresh temporary directory:
 * the integration talks to it over HTTP with SigV4-signed requests exactly as it would to MinIO or
 * AWS. s3rver knows one key pair, S3RVER/S3RVER. Note that it checks the access key id of a
 * SigV4 request but not the signature, so a wrong secret with the right key id is accepted there:
 * the credentials test uses an unknown key id.
 *
 * s3rver runs in a child process because its ListObjectsV2 continuation tokens are DES-encrypted,
 * and OpenSSL 3 (Node 17 and later) only offers DES with --openssl-legacy-provider, a flag a
 * running process cannot turn on. Without it every second page fails with InternalError.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  createOutboundPolicy,
  type ConnectorEvent,
  type ConnectorProvider,
  type ConnectorSource,
  type Logger,
} from '@docqa/plugin-api';
import readline from 'node:readline';
import integrationS3 from './index.js';
import { pluginOptionsSchema, type S3SourceConfig } from './config.js';

export const s3rverAccessKeyId = 'S3RVER';
export const s3rverSecret = 'S3RVER';

export interface TestStore {
  endpoint: string;
  /** A client with s3rver's credentials, to seed and change objects. */
  admin: S3Client;
  put(bucket: string, key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  /** Source config for `bucket` on this store, with s3rver's credentials. */
  sourceConfig(bucket: string, extra?: Record<string, unknown>): Record<string, unknown>;
  stop(): Promise<void>;
}

export async function startTestStore(buckets: string[]): Promise<TestStore> {
  const directory = temporaryDirectory('docqa-s3rver-');
  const server = await startS3rverProcess({
    port: 0,
    address: '127.0.0.1',
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const endpoint = `http://127.0.0.1:${server.port}`;
  const admin = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3rverAccessKeyId, secretAccessKey: s3rverSecret },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    admin,
    async put(bucket, key, body, contentType) {
      await admin.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ...(contentType ? { ContentType: contentType } : {}),
        }),
      );
    },
    async remove(bucket, key) {
      await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    sourceConfig(bucket, extra = {}) {
      return { endpoint, bucket, access_key_id: s3rverAccessKeyId, secret_access_key: s3rverSecret, ...extra };
    },
    async stop() {
      admin.destroy();
      await server.stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The child: s3rver's v3 API (`new S3rver(options)`, `run()` resolving to the bound address), which prints that address. */
const s3rverChildScript = `
const S3rver = require(process.argv[1]);
const server = new S3rver(JSON.parse(process.argv[2]));
server.run().then((address) => console.log(JSON.stringify(address)), (error) => { console.error(error); process.exit(1); });
`;

async function startS3rverProcess(options: Record<string, unknown>): Promise<{ port: number; stop(): Promise<void> }> {
  const s3rverModule = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', s3rverChildScript, s3rverModule, JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code} before listening`)));
  });
  const { port } = JSON.parse(firstLine) as net.AddressInfo;
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A TCP server on loopback that accepts connections and never answers: a request to it hangs until aborted. */
export async function startSilentServer(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function temporaryDirectory(prefix = 'docqa-s3-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** What the kernel does at start-up, minus the kernel: validate the options, then call init(). */
export async function initIntegration(
  stateDir: string,
  shutdown: AbortSignal = new AbortController().signal,
  // The test stores run on 127.0.0.1, which the plugin refuses unless outboundAllow allows it.
  outboundAllow: string[] = ['127.0.0.1'],
): Promise<ConnectorProvider<S3SourceConfig>> {
  const provider = await integrationS3.init({
    options: pluginOptionsSchema.parse({ stateDir, outboundAllow }),
    instanceId: 'integration-s3',
    deps: { logger: silentLogger, outbound: createOutboundPolicy([]) },
    logger: silentLogger,
    onStop: () => undefined,
    signal: shutdown,
  });
  return provider as ConnectorProvider<S3SourceConfig>;
}

export async function openSource(
  provider: ConnectorProvider<S3SourceConfig>,
  config: unknown,
  sourceId = 'source-1',
): Promise<ConnectorSource> {
  return provider.open(provider.sourceConfigSchema.parse(config), { sourceId });
}

export async function collect(
  source: ConnectorSource,
  cursor: string | null,
  signal: AbortSignal = new AbortController().signal,
): Promise<ConnectorEvent[]> {
  const events: ConnectorEvent[] = [];
  for await (const event of source.sync(cursor, signal)) events.push(event);
  return events;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure, but it succeeded');
    },
    (error: unknown) => error as Error,
  );
}

export function upsertedIds(events: ConnectorEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'upsert' ? [event.document.externalId] : []));
}

export function deletedIds(events: ConnectorEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'delete' ? [event.externalId] : []));
}

export function cursorOf(events: ConnectorEvent[]): string {
  const last = events.at(-1);
  if (last?.type !== 'checkpoint') throw new Error(`the sync did not end with a checkpoint: ${JSON.stringify(last)}`);
  return last.cursor;
}

export async function readAll(bytes: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
