import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type Account } from 'oidc-provider';

/** A person at the test IdP. */
export interface IdpAccount {
  sub: string;
  email: string;
  preferred_username?: string;
  name?: string;
  groups: string[];
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/**
 * A real OpenID provider (oidc-provider) on loopback, with a headless interaction step: where a
 * browser would show the IdP's login and consent pages, the handler signs in `nextAccount` and
 * grants what the client asked for, or refuses when `refuseNext` is set.
 */
export class TestIdp {
  readonly accounts = new Map<string, IdpAccount>();
  nextAccount = '';
  refuseNext = false;
  /** Requests for the discovery document so far: what a refused connection must not have sent. */
  discoveryRequests = 0;
  #server: http.Server | null = null;
  #provider: Provider | null = null;
  issuer = '';

  /** Listens first, so DocQA servers can be started with the issuer's address before clients are known. */
  async listen(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get discoveryUrl(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** Starts the provider with its registered clients (their redirect URIs are DocQA's callbacks). */
  configure(clients: IdpClient[]): void {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#provider = new Provider(this.issuer, {
      clients: clients.map((client) => ({
        ...client,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-signing-key', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
      // Groups come with their own scope, as at many IdPs; DocQA asks for it through `scopes`.
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['preferred_username', 'name'],
        groups: ['groups'],
      },
      features: { devInteractions: { enabled: false } },
      // Set, so the provider does not print a notice for each default lifetime it falls back to.
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      findAccount: (_ctx: unknown, sub: string): Account | undefined => {
        const account = this.accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ ...account, email_verified: true }) } : undefined;
      },
    });
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.url?.startsWith('/.well-known/')) this.discoveryRequests++;
    const provider = this.#provider;
    if (!provider) {
      res.statusCode = 503;
      res.end('not configured yet');
      return;
    }
    if (!req.url?.startsWith('/interaction/')) {
      provider.callback()(req, res);
      return;
    }
    const details = await provider.interactionDetails(req, res);
    if (this.refuseNext) {
      this.refuseNext = false;
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person declined the sign-in' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: this.nextAccount } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent: grant exactly what the prompt says is missing.
    const accountId = details.session?.accountId ?? this.nextAccount;
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missingScope = details.prompt.details.missingOIDCScope ?? [];
    if (missingScope.length > 0) grant.addOIDCScope(missingScope.join(' '));
    const missingClaims = details.prompt.details.missingOIDCClaims ?? [];
    if (missingClaims.length > 0) grant.addOIDCClaims(missingClaims);
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }
}

/**
 * Follows redirects by hand (fetch with redirect: 'manual'), carrying the IdP's cookies as a
 * browser would, until a response points at `stopAt` (DocQA's callback), and answers that URL.
 */
export async function followToCallback(start: string, stopAt: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(stopAt)) return url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some(
        (attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') < Date.now(),
      );
      if (value === '' || expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location)
      throw new Error(`expected a redirect from ${url}, got ${res.status}: ${await res.text()}`);
    await res.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}
