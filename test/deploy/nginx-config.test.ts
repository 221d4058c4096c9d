import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import {
  freePort,
  nginxTest,
  render,
  requireTool,
  selfSignedCertificate,
  startNginx,
  tempDir,
  type RunningNginx,
} from './tools.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: string, options: https.RequestOptions = {}): Promise<Answer> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { rejectUnauthorized: false, ...options }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('deployment: nginx configuration rendered from the stack variables (nginx -t)', function () {
  this.timeout(60_000);
  let dir: string;
  let certificate: { cert: string; key: string };

  before(() => {
    requireTool('nginx', 'nginx');
    requireTool('openssl', 'openssl');
    dir = tempDir('nginx-config');
    certificate = selfSignedCertificate(dir, 'docqa.test');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const tlsOn = () => ({
    TLS_ENABLED: '1',
    SERVER_NAME: 'docqa.test',
    TLS_CERT_PATH: certificate.cert,
    TLS_KEY_PATH: certificate.key,
    NGINX_LISTEN: '127.0.0.1:18443',
    NGINX_REDIRECT_LISTEN: '127.0.0.1:18480',
    NGINX_UPSTREAM: '127.0.0.1:18000',
  });

  it('TLS off: the defaults render a configuration nginx accepts, with the reset limit and unbuffered chat', () => {
    const file = path.join(dir, 'tls-off.conf');
    const rendered = render(file, { NGINX_UPSTREAM: '127.0.0.1:18000', NGINX_LISTEN: '127.0.0.1:18080' });
    expect(rendered.status, rendered.stderr).to.equal(0);
    const checked = nginxTest(dir, file);
    expect(checked.ok, checked.output).to.equal(true);
    const config = rendered.config!;
    expect(config).to.include('rate=10r/m').and.include('burst=20 nodelay').and.include('client_max_body_size 1g;');
    expect(config).to.match(/location = \/api\/chat \{[^}]*proxy_buffering off;/);
    expect(config).to.not.include('ssl_certificate').and.not.include('Strict-Transport-Security');
  });

  it('the container variant is the same server blocks without events/http, and nginx accepts it inside http {}', () => {
    const file = path.join(dir, 'default.conf');
    const rendered = render(file, { NGINX_UPSTREAM: '127.0.0.1:18000', NGINX_LISTEN: '127.0.0.1:18081' }, []);
    expect(rendered.status, rendered.stderr).to.equal(0);
    expect(rendered.config).to.not.match(/^\s*(events|http) \{/m);
    const wrapper = path.join(dir, 'wrapper.conf');
    fs.writeFileSync(
      wrapper,
      `pid nginx.pid;\nerror_log error.log;\nevents {}\nhttp {\n    client_body_temp_path temp/body;\n    proxy_temp_path temp/proxy;\n    include ${file};\n}\n`,
    );
    const checked = nginxTest(dir, wrapper);
    expect(checked.ok, checked.output).to.equal(true);
  });

  it('TLS on with a certificate: nginx accepts it; HSTS and OCSP stapling follow their variables', () => {
    const file = path.join(dir, 'tls-on.conf');
    const rendered = render(file, tlsOn());
    expect(rendered.status, rendered.stderr).to.equal(0);
    const checked = nginxTest(dir, file);
    expect(checked.ok, checked.output).to.equal(true);
    expect(rendered.config)
      .to.include('listen 127.0.0.1:18443 ssl;')
      .and.include('max-age=31536000')
      .and.include('ssl_stapling on;');

    const noHsts = render(path.join(dir, 'no-hsts.conf'), { ...tlsOn(), HSTS_MAX_AGE: '0', OCSP_STAPLING: 'off' });
    expect(noHsts.status, noHsts.stderr).to.equal(0);
    expect(noHsts.config).to.not.include('Strict-Transport-Security').and.not.include('ssl_stapling on');
    expect(nginxTest(dir, path.join(dir, 'no-hsts.conf')).ok).to.equal(true);
  });

  it('the port-80 redirect of the tls profile renders alone and nginx accepts it', () => {
    const file = path.join(dir, 'redirect.conf');
    const rendered = render(file, { ...tlsOn(), STACK_PORT: '443' }, ['--standalone', '--redirect-only']);
    expect(rendered.status, rendered.stderr).to.equal(0);
    expect(rendered.config).to.include('return 301 https://docqa.test$request_uri;').and.not.include('upstream');
    expect(nginxTest(dir, file).ok).to.equal(true);
  });

  const refused: Array<[string, Record<string, string>, string]> = [
    ['TLS_ENABLED that is not a boolean', { TLS_ENABLED: 'maybe' }, 'TLS_ENABLED="maybe"'],
    ['TLS on without SERVER_NAME', { TLS_ENABLED: 'true' }, 'SERVER_NAME is required'],
    [
      'a SERVER_NAME that would inject a directive',
      { TLS_ENABLED: '1', SERVER_NAME: 'a.test; return 200' },
      'SERVER_NAME=',
    ],
    ['a negative HSTS_MAX_AGE', { HSTS_MAX_AGE: '-1' }, 'HSTS_MAX_AGE='],
    ['OCSP_STAPLING other than on/off', { OCSP_STAPLING: 'yes' }, 'OCSP_STAPLING='],
    ['a malformed RATE_LIMIT_RESET', { RATE_LIMIT_RESET: '10/m' }, 'RATE_LIMIT_RESET='],
    ['a zero rate', { RATE_LIMIT_RESET: '0r/s' }, 'RATE_LIMIT_RESET='],
    ['a negative burst', { RATE_LIMIT_RESET_BURST: '-3' }, 'RATE_LIMIT_RESET_BURST='],
    ['an upload size nginx cannot read', { UPLOAD_MAX_BODY_SIZE: '1gb' }, 'UPLOAD_MAX_BODY_SIZE='],
    ['STACK_PORT out of range', { STACK_PORT: '70000' }, 'STACK_PORT='],
    ['a relative certificate path', { TLS_CERT_PATH: 'certs/fullchain.pem' }, 'TLS_CERT_PATH='],
    ['an upstream without a port', { NGINX_UPSTREAM: 'api' }, 'NGINX_UPSTREAM='],
  ];
  for (const [what, env, named] of refused) {
    it(`refuses ${what}, naming the variable and writing nothing`, () => {
      const rendered = render(path.join(dir, 'refused.conf'), env);
      expect(rendered.status).to.equal(1);
      expect(rendered.stderr).to.include(named);
      expect(rendered.config).to.equal(null);
    });
  }
});

describe('deployment: nginx with TLS in front of an upstream (headers, redirects, JSON errors)', function () {
  this.timeout(60_000);
  let dir: string;
  let upstream: http.Server;
  let seen: http.IncomingHttpHeaders[] = [];
  let nginx: RunningNginx;
  let tlsPort: number;
  let redirectPort: number;

  before(async () => {
    requireTool('nginx', 'nginx');
    requireTool('openssl', 'openssl');
    dir = tempDir('nginx-tls');
    const certificate = selfSignedCertificate(dir, 'docqa.test');
    upstream = http.createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    tlsPort = await freePort();
    redirectPort = await freePort();
    const file = path.join(dir, 'nginx.conf');
    const rendered = render(file, {
      TLS_ENABLED: 'yes',
      SERVER_NAME: 'docqa.test',
      TLS_CERT_PATH: certificate.cert,
      TLS_KEY_PATH: certificate.key,
      // A self-signed certificate names no OCSP responder, and the test has no DNS to reach one.
      OCSP_STAPLING: 'off',
      HSTS_MAX_AGE: '600',
      STACK_PORT: String(tlsPort),
      NGINX_LISTEN: `127.0.0.1:${tlsPort}`,
      NGINX_REDIRECT_LISTEN: `127.0.0.1:${redirectPort}`,
      NGINX_UPSTREAM: `127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    expect(rendered.status, rendered.stderr).to.equal(0);
    nginx = await startNginx(dir, file, tlsPort);
  });
  after(async () => {
    await nginx?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen = [];
  });

  it('proxies HTTPS with HSTS, and replaces a client-sent X-Forwarded-For with the client address', async () => {
    const answer = await request(`https://127.0.0.1:${tlsPort}/api/health?x=1`, {
      servername: 'docqa.test',
      headers: { host: 'docqa.test', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(answer.status, nginx.output()).to.equal(200);
    expect(JSON.parse(answer.body)).to.deep.equal({ path: '/api/health?x=1' });
    expect(answer.headers['strict-transport-security']).to.equal('max-age=600; includeSubDomains');
    expect(seen).to.have.length(1);
    expect(seen[0]).to.include({
      'x-forwarded-for': '127.0.0.1',
      'x-real-ip': '127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'docqa.test',
      'x-forwarded-port': String(tlsPort),
      host: 'docqa.test',
    });
  });

  it('redirects plain HTTP, on the redirect listener and on the HTTPS port itself, to the HTTPS address', async () => {
    const viaRedirect = await request(`http://127.0.0.1:${redirectPort}/chat/abc?q=1`, {
      headers: { host: 'docqa.test' },
    });
    expect(viaRedirect.status).to.equal(301);
    expect(viaRedirect.headers.location).to.equal(`https://docqa.test:${tlsPort}/chat/abc?q=1`);
    const onTlsPort = await request(`http://127.0.0.1:${tlsPort}/documents`, { headers: { host: 'docqa.test' } });
    expect(onTlsPort.status).to.equal(301);
    expect(onTlsPort.headers.location).to.equal(`https://docqa.test:${tlsPort}/documents`);
    expect(seen).to.have.length(0);
  });

  it('answers 503 in the API error shape when DocQA is not reachable', async () => {
    const closedPort = await freePort();
    const prefix = path.join(dir, 'down');
    fs.mkdirSync(prefix, { mode: 0o755 });
    const file = path.join(prefix, 'nginx.conf');
    const listen = await freePort();
    expect(
      render(file, { NGINX_LISTEN: `127.0.0.1:${listen}`, NGINX_UPSTREAM: `127.0.0.1:${closedPort}` }).status,
    ).to.equal(0);
    const down = await startNginx(prefix, file, listen);
    try {
      const answer = await request(`http://127.0.0.1:${listen}/api/health`);
      expect(answer.status).to.equal(503);
      expect(answer.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(answer.body)).to.include({ code: 'unavailable' });
    } finally {
      await down.stop();
    }
  });
});
