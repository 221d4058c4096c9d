import util from 'node:util';
import { expect } from 'chai';
import { DocqaError, providerTokens, type EmailProvider, type Logger } from '@docqa/plugin-api';
import { describeEmailConformance, startTestKernel } from '@docqa/plugin-testkit';
import emailSmtpPlugin, { smtpOptionsFromVariables, type SmtpEmailOptionsInput } from './index.js';
import {
  closedPort,
  makeTestCertificate,
  startReceivingServer,
  startSilentServer,
  type ReceivingServer,
  type ServerSecurity,
  type TestCertificate,
} from './receiving-server.test-support.js';

const credentials = { username: 'docqa-mailer', password: 'S3cret-smtp-pässword!' };
const sender = 'docqa@example.com';

// One certificate for every TLS server of this file: RSA key generation is the slow part.
let certificate: Promise<TestCertificate> | undefined;
const testCertificate = () => (certificate ??= makeTestCertificate());

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a quiet logger. */
async function startProvider(
  options: SmtpEmailOptionsInput,
): Promise<{ provider: EmailProvider; stop(): Promise<void> }> {
  const stopHooks: Array<() => unknown> = [];
  const provider = await emailSmtpPlugin.init({
    options: emailSmtpPlugin.configSchema.parse(options),
    instanceId: 'email-smtp',
    deps: {},
    logger: quietLogger,
    onStop: (hook) => stopHooks.push(hook),
    signal: new AbortController().signal,
  });
  const stop = async () => {
    for (const hook of stopHooks.reverse()) await hook();
  };
  return { provider, stop };
}

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/** Provider options that match a test server of this security. */
function optionsFor(
  server: ReceivingServer,
  security: ServerSecurity,
  extra: Partial<SmtpEmailOptionsInput> = {},
): SmtpEmailOptionsInput {
  return {
    host: '127.0.0.1',
    port: server.port,
    from: sender,
    startTls: security === 'starttls',
    tls: security === 'tls',
    rejectUnauthorized: false, // the test servers' certificate is self-signed
    ...extra,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<DocqaError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error, 'expected a failure').to.be.instanceOf(DocqaError);
  return error as DocqaError;
}

for (const security of ['plain', 'starttls', 'tls'] as const) {
  describeEmailConformance(`email-smtp (${security}, with AUTH)`, {
    async start() {
      const server = await startReceivingServer({ security, credentials, certificate: await testCertificate() });
      const { provider, stop } = await startProvider(optionsFor(server, security, credentials));
      return {
        provider,
        received: async () => server.messages.map(({ to, subject, text }) => ({ to, subject, text })),
        dispose: async () => {
          await stop();
          await server.close();
        },
      };
    },
  });
}

describe('email-smtp', function () {
  this.timeout(30_000);

  describe('sending', function () {
    const servers: ReceivingServer[] = [];
    const stops: Array<() => Promise<void>> = [];

    async function serverAndProvider(
      security: ServerSecurity,
      extra: Partial<SmtpEmailOptionsInput> = {},
      withCredentials = true,
    ) {
      const server = await startReceivingServer({
        security,
        certificate: await testCertificate(),
        ...(withCredentials ? { credentials } : {}),
      });
      servers.push(server);
      const { provider, stop } = await startProvider(
        optionsFor(server, security, { ...(withCredentials ? credentials : {}), ...extra }),
      );
      stops.push(stop);
      return { server, provider };
    }

    afterEach(async function () {
      await Promise.all(stops.splice(0).map((stop) => stop()));
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });

    it('sends from the configured sender to the recipient, authenticated as the configured user', async () => {
      const { server, provider } = await serverAndProvider('plain');
      await provider.send({ to: 'user@example.com', subject: 'Hello', text: 'Body' });
      const [message] = server.messages;
      expect(message?.headers.get('from')).to.equal(sender);
      expect(message?.headers.get('to')).to.equal('user@example.com');
      expect(message?.user).to.equal(credentials.username);
      expect(message?.secure).to.equal(false);
    });

    it('sends without AUTH when no username is configured', async () => {
      const { server, provider } = await serverAndProvider('plain', {}, false);
      await provider.send({ to: 'user@example.com', subject: 'No auth', text: 'Body' });
      expect(server.messages.map((message) => message.user)).to.deep.equal([undefined]);
    });

    it('upgrades with STARTTLS before authenticating when startTls is set', async () => {
      const { server, provider } = await serverAndProvider('starttls');
      await provider.send({ to: 'user@example.com', subject: 'Over STARTTLS', text: 'Body' });
      // This server refuses AUTH in clear text, so a message from the user proves the upgrade came first.
      expect(server.messages.map(({ secure, user }) => ({ secure, user }))).to.deep.equal([
        { secure: true, user: credentials.username },
      ]);
    });

    it('refuses to go on in clear text when startTls is set and the server offers no STARTTLS', async () => {
      const server = await startReceivingServer({ security: 'plain', credentials });
      servers.push(server);
      const { provider, stop } = await startProvider(optionsFor(server, 'starttls', credentials));
      stops.push(stop);
      const error = await failureOf(provider.send({ to: 'user@example.com', subject: 'Must not go', text: 'Body' }));
      expect(error.code).to.equal('unavailable');
      expect(server.authAttempts, 'credentials sent in clear text').to.deep.equal([]);
      expect(server.messages).to.deep.equal([]);
    });

    it('speaks TLS from the first byte when tls is set', async () => {
      const { server, provider } = await serverAndProvider('tls');
      await provider.send({ to: 'user@example.com', subject: 'Over TLS', text: 'Body' });
      expect(server.messages.map(({ secure, user }) => ({ secure, user }))).to.deep.equal([
        { secure: true, user: credentials.username },
      ]);
    });

    it('verifies the server certificate unless rejectUnauthorized is false', async () => {
      const { server, provider } = await serverAndProvider('tls', { rejectUnauthorized: true });
      const error = await failureOf(provider.send({ to: 'user@example.com', subject: 'Must not go', text: 'Body' }));
      expect(error.code).to.equal('unavailable');
      expect(error.message).to.match(/certificate/i);
      expect(server.messages).to.deep.equal([]);
    });

    it('sends the HTML alternative along with the text', async () => {
      const { server, provider } = await serverAndProvider('plain');
      await provider.send({
        to: 'user@example.com',
        subject: 'Both',
        text: 'Plain words',
        html: '<p>Plain <b>words</b></p>',
      });
      const [message] = server.messages;
      expect(message?.headers.get('content-type')).to.match(/^multipart\/alternative/);
      expect(message?.text).to.equal('Plain words');
    });

    it('keeps a mostly non-ASCII body intact (sent base64-encoded)', async () => {
      const { server, provider } = await serverAndProvider('plain');
      const text = 'パスワードを再設定するには、管理者に連絡してください。\n'.repeat(20).trimEnd();
      await provider.send({ to: 'user@example.com', subject: 'パスワードの再設定', text });
      const [message] = server.messages;
      expect(message?.headers.get('content-transfer-encoding')).to.equal('base64');
      expect(message?.subject).to.equal('パスワードの再設定');
      expect(message?.text.replace(/\r\n/g, '\n')).to.equal(text);
    });

    it('reports a wrong password as unavailable, naming the server and never the password', async () => {
      const wrongPassword = 'Wr0ng-pässword-42';
      const { server, provider } = await serverAndProvider('plain', { password: wrongPassword });
      const error = await failureOf(provider.send({ to: 'user@example.com', subject: 'Must not go', text: 'Body' }));
      expect(error.code).to.equal('unavailable');
      expect(error.message).to.include(`The mail server at 127.0.0.1:${server.port} refused or could not be reached`);
      expect(error.message).to.include('authentication failed');
      expect(server.authAttempts).to.deep.equal([{ username: credentials.username, accepted: false }]);
      // Everything a log line or an HTTP answer could show: the message, the cause chain, the body.
      const everything = [error.message, util.inspect(error, { depth: 10 }), JSON.stringify(error.toBody())].join('\n');
      for (const secretForm of [wrongPassword, Buffer.from(wrongPassword).toString('base64')]) {
        expect(everything).to.not.include(secretForm);
      }
      expect(server.messages).to.deep.equal([]);
    });
  });

  describe('an unreachable server', function () {
    it('is not contacted at start-up, and a closed port fails the send as unavailable at once', async () => {
      const port = await closedPort();
      const { provider, stop } = await startProvider({
        host: '127.0.0.1',
        port,
        from: sender,
        connectionTimeoutSeconds: 3,
      });
      try {
        const started = Date.now();
        const error = await failureOf(provider.send({ to: 'user@example.com', subject: 'Nobody there', text: 'Body' }));
        expect(Date.now() - started).to.be.below(3_000);
        expect(error.code).to.equal('unavailable');
        expect(error.message).to.include(`The mail server at 127.0.0.1:${port} refused or could not be reached`);
      } finally {
        await stop();
      }
    });

    it('gives up on a server that never greets after connectionTimeoutSeconds', async () => {
      const silent = await startSilentServer();
      const { provider, stop } = await startProvider({
        host: '127.0.0.1',
        port: silent.port,
        from: sender,
        connectionTimeoutSeconds: 1,
      });
      try {
        const started = Date.now();
        const error = await failureOf(provider.send({ to: 'user@example.com', subject: 'Hung server', text: 'Body' }));
        expect(Date.now() - started).to.be.within(900, 3_000);
        expect(error.code).to.equal('unavailable');
      } finally {
        await stop();
        await silent.close();
      }
    });
  });

  describe('options', function () {
    const base = { host: 'mail.example.com', port: 587, from: sender };
    const problems = (options: unknown) => {
      const parsed = emailSmtpPlugin.configSchema.safeParse(options);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };

    it('fills in the defaults', () => {
      expect(emailSmtpPlugin.configSchema.parse(base)).to.deep.equal({
        ...base,
        startTls: false,
        tls: false,
        connectionTimeoutSeconds: 10,
        rejectUnauthorized: true,
      });
    });

    it('refuses tls with startTls, a password without a username and the reverse, bad ports, senders and unknown options', () => {
      expect(problems({ ...base, tls: true, startTls: true }))
        .to.have.lengthOf(1)
        .and.satisfy((list: string[]) => list[0]?.startsWith('tls: tls and startTls exclude each other'));
      expect(problems({ ...base, password: 'p' })).to.deep.equal(['username: a password needs a username']);
      expect(problems({ ...base, username: 'u' })[0]).to.match(/^password: a username needs a password/);
      expect(problems({ ...base, port: 0 })[0]).to.match(/^port:/);
      expect(problems({ ...base, port: 65536 })[0]).to.match(/^port:/);
      expect(problems({ ...base, from: 'not an address' })[0]).to.match(/^from:/);
      expect(problems({ ...base, secure: true })[0]).to.match(/secure/);
      expect(problems({ ...base, username: 'u', password: 'p', startTls: true })).to.deep.equal([]);
    });

    it('maps the SMTP_* variables to options, leaving unset ones to the defaults', () => {
      const variables: Record<string, unknown> = {
        SMTP_HOST: 'mail.example.com',
        SMTP_PORT: 465,
        SMTP_FROM: sender,
        SMTP_TLS: true,
        SMTP_STARTTLS: false,
      };
      expect(smtpOptionsFromVariables((name) => variables[name])).to.deep.equal({
        host: 'mail.example.com',
        port: 465,
        from: sender,
        startTls: false,
        tls: true,
      });
      // The credentials too, as the kernel resolved them (SMTP_PASSWORD from its secret file).
      const withCredentials: Record<string, unknown> = {
        ...variables,
        SMTP_USERNAME: 'docqa-mailer',
        SMTP_PASSWORD: 'S3cret',
      };
      expect(smtpOptionsFromVariables((name) => withCredentials[name])).to.include({
        username: 'docqa-mailer',
        password: 'S3cret',
      });
    });
  });

  describe('in a kernel', function () {
    this.timeout(120_000);

    it('refuses to start with tls and startTls both set, naming the instance', async () => {
      const error = await startTestKernel({
        plugins: [
          {
            plugin: emailSmtpPlugin,
            options: { host: '127.0.0.1', port: 2525, from: sender, tls: true, startTls: true },
          },
        ],
      }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).to.have.property('code', 'plugin_invalid');
      expect((error as Error).message)
        .to.include("plugin instance 'email-smtp'")
        .and.include('tls and startTls exclude each other');
    });

    it('sends through the provider the kernel registers, and logs nothing of the password', async () => {
      const server = await startReceivingServer({ security: 'plain', credentials });
      const logs: string[] = [];
      const kernel = await startTestKernel({
        plugins: [
          { plugin: emailSmtpPlugin, options: { host: '127.0.0.1', port: server.port, from: sender, ...credentials } },
        ],
        env: { LOG_LEVEL: 'DEBUG' },
        logs,
      });
      try {
        await kernel
          .resolve(providerTokens.email)
          .send({ to: 'user@example.com', subject: 'Through the kernel', text: 'Body' });
        expect(server.messages.map((message) => message.subject)).to.deep.equal(['Through the kernel']);
        expect(logs.some((line) => line.includes('SMTP email provider ready'))).to.equal(true);
      } finally {
        await kernel.dispose();
        await server.close();
      }
      expect(logs.join('\n')).to.not.include(credentials.password);
    });
  });
});
