import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DocqaError } from '../errors.js';
import { createGuardedFetch } from './guarded-fetch.js';
import { OutboundGuard, outboundAllowListSchema } from './outbound-guard.js';

const setting = "the test's outboundAllow option";
const defaultGuard = new OutboundGuard({ allow: [], setting });

async function refusal(check: Promise<unknown>): Promise<DocqaError> {
  try {
    await check;
  } catch (error) {
    if (DocqaError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the guard to refuse');
}

describe('outbound guard', function () {
  it('refuses loopback, private, link-local, metadata, CGNAT and other non-public addresses', function () {
    const refused = {
      '127.0.0.1': 'loopback',
      '127.255.0.9': 'loopback',
      '::1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '192.168.1.1': 'private',
      'fd12:3456::1': 'unique local',
      '169.254.169.254': 'link-local',
      'fd00:ec2::254': 'unique local',
      'fe80::1': 'link-local',
      '100.64.0.1': 'carrier-grade NAT',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '224.0.0.1': 'multicast',
      'ff02::1': 'multicast',
      '255.255.255.255': 'broadcast',
      '240.0.0.1': 'reserved',
      // IPv4 inside IPv6: the mapped form is judged as the IPv4 address it carries.
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:a9fe:a9fe': 'link-local',
      '64:ff9b::7f00:1': 'NAT64',
      '2002:7f00:1::': '6to4',
    };
    for (const [address, range] of Object.entries(refused)) {
      expect(defaultGuard.refusal('example.test', address), address).to.include(range);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(defaultGuard.refusal('example.test', address), address).to.equal(undefined);
    }
  });

  it('refuses loopback however the URL writes it, with an error naming the setting', async function () {
    const urls = [
      'http://127.0.0.1/',
      'http://localhost/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const url of urls) {
      const error = await refusal(defaultGuard.checkUrl(url));
      expect(error.code, url).to.equal('validation_failed');
      expect(error.message, url).to.match(/^Refused to connect to .*(loopback|link-local)/);
      expect(error.message, url).to.include(setting);
    }
  });

  it('allows listed host names, addresses and CIDR ranges', async function () {
    const guard = new OutboundGuard({ allow: ['localhost', '10.0.0.0/8', '::1', '192.168.1.7'], setting });
    await guard.checkUrl('http://localhost:8080/');
    await guard.checkUrl('http://[::1]/');
    expect(guard.refusal('nas.internal', '10.200.0.1')).to.equal(undefined);
    expect(guard.refusal('nas.internal', '192.168.1.7')).to.equal(undefined);
    expect(guard.refusal('nas.internal', '192.168.1.8')).to.include('private');
    expect(guard.refusal('nas.internal', '127.0.0.1')).to.include('loopback');
  });

  it('validates allow-list entries', function () {
    expect(outboundAllowListSchema.parse(undefined)).to.deep.equal([]);
    expect(outboundAllowListSchema.parse(['git.internal', '10.0.0.0/8', 'fd00::/8', '127.0.0.1'])).to.have.length(4);
    for (const bad of ['http://git.internal/', '10.0.0.0/33', 'two words', '']) {
      expect(outboundAllowListSchema.safeParse([bad]).success, bad).to.equal(false);
    }
  });

  it('checks the address connected to (lookup): a name resolving to loopback is refused', async function () {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await refusal(
        new Promise((resolve, reject) => {
          const socket = net.connect({ host: 'localhost', port, family: 4, lookup: defaultGuard.lookup });
          socket.once('connect', () => resolve(socket.destroy()));
          socket.once('error', reject);
        }),
      );
      expect(error.message).to.include('127.0.0.1 is a loopback address');
    } finally {
      server.close();
    }
  });
});

describe('guarded fetch', function () {
  let server: http.Server;
  let port: number;

  before(async function () {
    server = http.createServer((request, response) => {
      const loopback = `http://127.0.0.1:${port}/secret`;
      if (request.url === '/to-loopback') response.writeHead(302, { location: loopback }).end();
      else if (request.url === '/to-self') response.writeHead(302, { location: `http://localhost:${port}/page` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(`you asked for ${request.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(function () {
    server.close();
  });

  it('fetches an allowed host and follows redirects that stay allowed', async function () {
    const fetch = createGuardedFetch(new OutboundGuard({ allow: ['localhost'], setting }));
    const response = await fetch(`http://localhost:${port}/to-self`);
    expect(await response.text()).to.equal('you asked for /page');
  });

  it('refuses a redirect from an allowed host to 127.0.0.1', async function () {
    const fetch = createGuardedFetch(new OutboundGuard({ allow: ['localhost'], setting }));
    const error = await refusal(fetch(`http://localhost:${port}/to-loopback`));
    expect(error.message).to.include(`Refused to connect to 127.0.0.1:${port}: 127.0.0.1 is a loopback address`);
    const manual = await fetch(`http://localhost:${port}/to-loopback`, { redirect: 'manual' });
    expect(manual.status, 'manual redirects are the caller to check').to.equal(302);
  });

  it('refuses loopback by default', async function () {
    const error = await refusal(createGuardedFetch(defaultGuard)(`http://127.0.0.1:${port}/`));
    expect(error.message).to.include('loopback');
  });
});
