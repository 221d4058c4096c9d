import type { RequestHandler } from 'express';
import { rateLimit, type ClientRateLimitInfo, type Store } from 'express-rate-limit';
import { DocqaError } from '@docqa/plugin-api';
import { sendError } from './errors.js';

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * nginx's `limit_req rate=10r/m burst=20 nodelay` as an express-rate-limit store: a token bucket
 * per client that holds 1 + burst requests and refills at the rate. The limit handed to
 * express-rate-limit is the bucket size; a request finding the bucket empty counts as one over it.
 */
export class TokenBucketStore implements Store {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;
  readonly #msPerToken: number;
  readonly localKeys = true;

  constructor(perMinute: number, burst: number) {
    this.#capacity = 1 + burst;
    this.#msPerToken = 60_000 / perMinute;
  }

  /** Requests a full bucket holds: a hit counting more is over the limit. */
  get capacity(): number {
    return this.#capacity;
  }

  #refill(key: string, now: number): Bucket {
    const bucket = this.#buckets.get(key) ?? { tokens: this.#capacity, updated: now };
    bucket.tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.updated) / this.#msPerToken);
    bucket.updated = now;
    this.#buckets.set(key, bucket);
    return bucket;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const bucket = this.#refill(key, Date.now());
    return { totalHits: Math.ceil(this.#capacity - bucket.tokens), resetTime: this.#nextToken(bucket) };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = Date.now();
    const bucket = this.#refill(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { totalHits: Math.ceil(this.#capacity - bucket.tokens), resetTime: this.#nextToken(bucket) };
    }
    if (this.#buckets.size > 100_000) this.#sweep(now);
    return { totalHits: this.#capacity + 1, resetTime: this.#nextToken(bucket) };
  }

  async decrement(key: string): Promise<void> {
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.#capacity, bucket.tokens + 1);
  }

  async resetKey(key: string): Promise<void> {
    this.#buckets.delete(key);
  }

  #nextToken(bucket: Bucket): Date {
    const missing = bucket.tokens >= 1 ? 0 : 1 - bucket.tokens;
    return new Date(bucket.updated + missing * this.#msPerToken);
  }

  /** Full buckets carry no information; dropping them bounds memory under many clients. */
  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.updated) / this.#msPerToken >= this.#capacity) this.#buckets.delete(key);
    }
  }
}

type Rate = { count: number; per: 'second' | 'minute' };

/** The limiter of the password-reset endpoints: RATE_LIMIT_RESET with RATE_LIMIT_RESET_BURST, per client address. */
export function resetRateLimit(rate: Rate, burst: number): RequestHandler {
  return clientRateLimit(rate, burst, 'password reset requests (RATE_LIMIT_RESET)');
}

/**
 * A token bucket per client address (the one express sees: TRUST_PROXY) in this process; past it,
 * 429 `rate_limited` with Retry-After, before the route does any work. `what` names the requests
 * and the setting in the message.
 */
export function clientRateLimit(rate: Rate, burst: number, what: string): RequestHandler {
  const perMinute = rate.per === 'second' ? rate.count * 60 : rate.count;
  return rateLimit({
    store: new TokenBucketStore(perMinute, burst),
    limit: 1 + burst,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (req, res) => {
      const info = (req as typeof req & { rateLimit?: { resetTime?: Date } }).rateLimit;
      const resetAt = info?.resetTime?.getTime() ?? Date.now() + 60_000 / perMinute;
      const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      sendError(
        res,
        new DocqaError('rate_limited', `Too many ${what}; try again in ${retryAfter} s.`, {
          headers: { 'Retry-After': String(retryAfter) },
        }),
      );
    },
  });
}

/** API_KEY_RATE_LIMIT: a token bucket per API key in this process; past it, 429 with Retry-After. */
export function apiKeyRateLimit(rate: Rate, burst: number): (key: string) => Promise<void> {
  const store = new TokenBucketStore(rate.per === 'second' ? rate.count * 60 : rate.count, burst);
  return async (key) => {
    const hit = await store.increment(key);
    if (hit.totalHits <= store.capacity) return;
    const waitMs = (hit.resetTime?.getTime() ?? Date.now()) - Date.now();
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    const detail = `This API key made too many requests (API_KEY_RATE_LIMIT); try again in ${retryAfter} s.`;
    throw new DocqaError('rate_limited', detail, { headers: { 'Retry-After': String(retryAfter) } });
  };
}
