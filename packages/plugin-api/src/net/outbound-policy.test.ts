import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DocqaError } from '../errors.js';
import { createOutboundPolicy, hostOfUrl } from './outbound-policy.js';

async function refusal(check: Promise<unknown>): Promise<DocqaError> {
  try {
    await check;
  } catch (error) {
    if (DocqaError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the policy to refuse');
}

describe('outbound policy (OUTBOUND_ALLOW)', function () {
  let server: http.Server;
  let origin: string;
  let requests: string[];

  before(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/to-other-loopback') {
        // Loopback, but not the host the operator configured.
        res.writeHead(302, { location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/ok` }).end();
      } else {
        res.end('ok');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    requests = [];
  });
  after(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses the server’s own requests to loopback by default, naming OUTBOUND_ALLOW, and sends nothing', async () => {
    const error = await refusal(createOutboundPolicy([]).fetch(`${origin}/ok`));
    expect(error.code).to.equal('validation_failed');
    expect(error.message).to.contain('127.0.0.1 is a loopback address').and.contain('the OUTBOUND_ALLOW variable');
    expect(requests).to.deep.equal([]);
  });

  it('connects to what OUTBOUND_ALLOW lists, and still checks every redirect', async () => {
    const policy = createOutboundPolicy(['127.0.0.1']);
    expect(await (await policy.fetch(`${origin}/ok`)).text()).to.equal('ok');
    const error = await refusal(policy.fetch(`${origin}/to-metadata`));
    expect(error.message).to.contain('169.254.169.254 is a link-local (including cloud metadata) address');
    expect(requests).to.deep.equal(['/ok', '/to-metadata']);
  });

  it('allows the host of an operator-configured URL by name only: a redirect elsewhere is refused', async () => {
    const configured = createOutboundPolicy([]).configured([`${origin}/v1`, undefined, 'not a url']);
    expect(await (await configured.fetch(`${origin}/ok`)).text()).to.equal('ok');
    const error = await refusal(configured.fetch(`${origin}/to-other-loopback`));
    expect(error.message).to.contain('127.0.0.2 is a loopback address');
    expect(requests).to.deep.equal(['/ok', '/to-other-loopback']);
  });

  it('extends the policy with a plugin option, naming both settings in a refusal', async () => {
    const policy = createOutboundPolicy(['10.0.0.0/8']);
    const guard = policy.extend(['192.168.0.0/16'], 'the outboundAllow option of web');
    expect(guard.refusal('10.1.2.3', '10.1.2.3')).to.equal(undefined);
    expect(guard.refusal('192.168.1.1', '192.168.1.1')).to.equal(undefined);
    const error = await refusal(guard.checkUrl('http://127.0.0.1/'));
    expect(error.message).to.contain('the outboundAllow option of web (or the OUTBOUND_ALLOW variable)');
  });

  it('takes the host of a URL as an allow-list entry', () => {
    expect(hostOfUrl('http://[::1]:8080/v1')).to.equal('::1');
    expect(hostOfUrl('https://Inference:8080')).to.equal('inference');
    expect(hostOfUrl('no url')).to.equal(null);
  });
});
