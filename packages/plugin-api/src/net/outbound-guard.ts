import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { DocqaError } from '../errors.js';

/*
 * The guard for every outbound connection a user can point somewhere (a web site to crawl, an S3 or
 * git endpoint, an OIDC issuer, a model URL). Without it such a user can make the server read its own
 * loopback services, the private network or a cloud metadata endpoint, and index the answers.
 *
 * Only globally routable unicast addresses are allowed by default. Everything else ipaddr.js knows a
 * range for is refused: loopback, private (RFC 1918, fc00::/7), link-local (169.254/16 with the
 * metadata address 169.254.169.254, fe80::/10), CGNAT (100.64/10), unspecified, multicast,
 * broadcast, reserved, documentation, and the IPv6 forms that carry an IPv4 address (mapped,
 * NAT64, 6to4, Teredo), since those can reach an internal IPv4 host. Operators allow internal hosts
 * with an allow-list of host names, addresses and CIDR ranges.
 */

/** One allow-list entry: a host name (matched exactly, case-insensitively), an IP address or a CIDR range. */
export const outboundAllowEntrySchema = z
  .string()
  .trim()
  .min(1)
  .refine(
    (entry) => parseAllowEntry(entry) !== undefined,
    'must be a host name, an IP address or a CIDR range such as 10.0.0.0/8',
  );

/** An allow-list option: empty (the default) allows only public addresses. */
export const outboundAllowListSchema = z.array(outboundAllowEntrySchema).max(1000).default([]);

type AllowEntry = { host: string } | { range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

const hostLabel = '[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?';
const hostNamePattern = new RegExp(`^(?=.{1,253}$)${hostLabel}(\\.${hostLabel})*\\.?$`, 'i');

function parseAllowEntry(entry: string): AllowEntry | undefined {
  const text = entry.trim();
  if (text.includes('/')) {
    try {
      return { range: ipaddr.parseCIDR(text) };
    } catch {
      return undefined;
    }
  }
  if (net.isIP(text)) return { range: ipaddr.parseCIDR(`${text}/${net.isIPv4(text) ? 32 : 128}`) };
  return hostNamePattern.test(text) ? { host: text.toLowerCase().replace(/\.$/, '') } : undefined;
}

export interface OutboundGuardOptions {
  /** Host names, addresses and CIDR ranges allowed although they are not public. */
  allow: readonly string[];
  /** Where an operator allows a refused host, named in the error: "integration-web's outboundAllow option". */
  setting: string;
}

/** dns.lookup's callback as net.connect and undici call a `lookup` option. */
type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * Checks outbound addresses against the policy. `checkUrl` gives a clear error before a request;
 * `lookup`, given to the HTTP agent, checks the addresses a connection is actually made to, so a
 * host name that resolves to a public address when checked and to 127.0.0.1 when connected (DNS
 * rebinding) is refused as well.
 */
export class OutboundGuard {
  readonly #hosts = new Set<string>();
  readonly #ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  readonly #setting: string;

  constructor(options: OutboundGuardOptions) {
    for (const entry of options.allow) {
      const parsed = parseAllowEntry(entry);
      if (!parsed) {
        const message = `${options.setting}: '${entry}' is not a host name, an IP address or a CIDR range`;
        throw new DocqaError('config_invalid', message);
      }
      if ('host' in parsed) this.#hosts.add(parsed.host);
      else this.#ranges.push(parsed.range);
    }
    this.#setting = options.setting;
  }

  /** Why a connection to `address` (reached as `hostname`) is refused; undefined when it is allowed. */
  refusal(hostname: string, address: string): string | undefined {
    if (this.#hosts.has(normaliseHost(hostname))) return undefined;
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it carries.
    const parsed = ipaddr.process(address);
    const listed = this.#ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
    if (listed) return undefined;
    const range = parsed.range();
    return range === 'unicast' ? undefined : `${address} is a ${describeRange(range)} address`;
  }

  /** Throws the refusal error when `url`'s host is, or resolves to, an address that is not allowed. */
  async checkUrl(url: URL | string): Promise<void> {
    const target = new URL(url);
    const hostname = normaliseHost(target.hostname);
    if (this.#hosts.has(hostname)) return;
    const addresses = net.isIP(hostname)
      ? [hostname]
      : (await dns.promises.lookup(hostname, { all: true })).map((resolved) => resolved.address);
    for (const address of addresses) {
      const reason = this.refusal(hostname, address);
      if (reason) throw this.#refused(target.host, reason);
    }
  }

  /**
   * A `lookup` for net.connect, http.Agent and undici's connect options: resolves as dns.lookup
   * does and fails with the refusal error when any resolved address is not allowed.
   */
  readonly lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const reason = this.refusal(hostname, address);
        if (reason) return callback(this.#refused(hostname, reason) as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

  #refused(host: string, reason: string): DocqaError {
    return new DocqaError(
      'validation_failed',
      `Refused to connect to ${host}: ${reason}. DocQA does not connect to loopback, private, link-local ` +
        'or other non-public addresses unless they are allowed; ' +
        `to allow this host, add it (or its address range) to ${this.#setting}.`,
      { extra: { limit: 'outbound_address' } },
    );
  }
}

/** URL hostnames of IPv6 literals keep their brackets; allow-list host names ignore case and a final dot. */
function normaliseHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
}

const rangeNames: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  linkLocal: 'link-local (including cloud metadata)',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
};

function describeRange(range: string): string {
  return rangeNames[range] ?? `special-purpose (${range})`;
}
