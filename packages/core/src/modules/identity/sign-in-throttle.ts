import { DocqaError } from '@docqa/plugin-api';

export interface SignInLimits {
  /** Failures of one account from one client before each further one makes it wait. */
  accountFailures: number;
  /** Failures of one account from all clients together (a guess spread over many addresses). */
  accountTotalFailures: number;
  /** Failures of one client, whatever the accounts. */
  clientFailures: number;
  /** The longest wait; a locked-out user is never kept out longer. */
  maxWaitSeconds: number;
  /** The longest wait of the all-clients account count, short so an attacker cannot lock a user out. */
  accountTotalMaxWaitSeconds: number;
  /** An attempt checked but never settled (its request failed otherwise) counts as under way this long. */
  unsettledSeconds: number;
}

interface Record {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

/** Who is signing in: the account (user name, case-folded) and the client's address. */
export interface SignInAttempt {
  account: string | null;
  client: string;
}

/**
 * Growing waits after failed sign-ins, checked before any password is hashed so a client over its
 * limit costs nothing. Three counts, each with its own allowance: an account from one client
 * (someone guessing one password), a client over all accounts (someone trying many), an account over
 * all clients (a guess spread over many addresses; its wait is capped low, so nobody can keep a user
 * out for long by failing in their name). Past an allowance each failure doubles the wait, from 1 s
 * up to the cap; a success clears that account's counts from that client.
 *
 * Per process: replicas keep their own counts, which multiplies an attacker's allowance by the
 * number of API processes but keeps every sign-in off the database's write path.
 */
export class SignInThrottle {
  readonly #records = new Map<string, Record>();
  /**
   * Attempts checked and not yet settled (failed or succeeded), by key: when they were checked.
   * Without them, 60 guesses sent at once all passed the check before the first had failed, and
   * each cost its hash. One never settled (an error on the way) stops counting after a while.
   */
  readonly #underway = new Map<string, number[]>();

  constructor(private readonly limits: SignInLimits) {}

  /**
   * Throws rate_limited (429, Retry-After) when any count of the attempt is waiting, or when the
   * attempts already under way would use up its allowance should they fail: those settle first.
   */
  check(attempt: SignInAttempt, now = Date.now()): void {
    const keys = this.#keys(attempt);
    const waits = keys.map(({ key }) => (this.#records.get(key)?.blockedUntil ?? 0) - now);
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw this.#wait(Math.ceil(wait / 1000));
    const crowded = keys.some(({ key, allowance }) => {
      const underway = this.#underwayAt(key, now).length;
      return underway > 0 && this.#failuresAt(key, now) + underway >= allowance;
    });
    if (crowded) throw this.#wait(1);
  }

  /** `check`, then counts the attempt as under way until `failed` or `succeeded` settles it. */
  begin(attempt: SignInAttempt, now = Date.now()): void {
    this.check(attempt, now);
    for (const { key } of this.#keys(attempt)) this.#underway.set(key, [...this.#underwayAt(key, now), now]);
  }

  #wait(seconds: number): DocqaError {
    return new DocqaError('rate_limited', `Too many failed sign-ins; try again in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
      extra: { retry_after: seconds },
    });
  }

  #underwayAt(key: string, now: number): number[] {
    const fresh = (this.#underway.get(key) ?? []).filter((at) => now - at < this.limits.unsettledSeconds * 1000);
    if (fresh.length === 0) this.#underway.delete(key);
    return fresh;
  }

  #failuresAt(key: string, now: number): number {
    const record = this.#records.get(key);
    if (!record || now - record.lastFailure > 2 * this.limits.maxWaitSeconds * 1000) return 0;
    return record.failures;
  }

  /** The attempt is no longer under way. */
  #settle(attempt: SignInAttempt): void {
    for (const { key } of this.#keys(attempt)) {
      const underway = this.#underway.get(key);
      underway?.shift();
      if (underway?.length === 0) this.#underway.delete(key);
    }
  }

  failed(attempt: SignInAttempt, now = Date.now()): void {
    this.#settle(attempt);
    if (this.#records.size > 100_000) this.#forgetIdle(now);
    for (const { key, allowance, maxWaitSeconds } of this.#keys(attempt)) {
      const record = this.#records.get(key) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
      // Counts fade: a quiet stretch twice the longest wait starts the count afresh.
      if (now - record.lastFailure > 2 * this.limits.maxWaitSeconds * 1000) record.failures = 0;
      record.failures += 1;
      record.lastFailure = now;
      const over = record.failures - allowance;
      if (over > 0) record.blockedUntil = now + Math.min(maxWaitSeconds, 2 ** (over - 1)) * 1000;
      this.#records.set(key, record);
    }
  }

  succeeded(attempt: SignInAttempt): void {
    this.#settle(attempt);
    if (attempt.account !== null) this.#records.delete(`account-client:${attempt.account}:${attempt.client}`);
  }

  #keys(attempt: SignInAttempt): Array<{ key: string; allowance: number; maxWaitSeconds: number }> {
    const { accountFailures, accountTotalFailures, clientFailures, maxWaitSeconds, accountTotalMaxWaitSeconds } =
      this.limits;
    const keys = [{ key: `client:${attempt.client}`, allowance: clientFailures, maxWaitSeconds }];
    if (attempt.account !== null) {
      keys.push({
        key: `account-client:${attempt.account}:${attempt.client}`,
        allowance: accountFailures,
        maxWaitSeconds,
      });
      keys.push({
        key: `account:${attempt.account}`,
        allowance: accountTotalFailures,
        maxWaitSeconds: accountTotalMaxWaitSeconds,
      });
    }
    return keys;
  }

  #forgetIdle(now: number): void {
    for (const [key, record] of this.#records) {
      if (record.blockedUntil < now && now - record.lastFailure > 2 * this.limits.maxWaitSeconds * 1000)
        this.#records.delete(key);
    }
  }
}
