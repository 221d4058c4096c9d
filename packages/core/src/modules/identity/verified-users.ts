/**
 * What an access token's check read from the database (the user's role, token version and whether
 * the token's sign-in was revoked), kept for a few seconds so that a signed-in user's requests do not
 * each cost a round trip. Safe because every change that could refuse or narrow a token goes through
 * this process's UserRepository, which forgets the user at once (after the change commits), and other
 * processes (replicas, cluster workers, the docqa command) forget everything after `ttlMs`: the same
 * bound within which they pick up a runtime setting.
 *
 * A read that was under way while a user was forgotten is not kept: it may have seen the row before
 * the change (the generation check below).
 */
export interface VerifiedUser {
  id: string;
  username: string;
  role: 'admin' | 'editor' | 'viewer';
  token_version: number;
  family_revoked: boolean;
}

interface Entry {
  user: VerifiedUser;
  expiresAt: number;
}

export class VerifiedUsers {
  /** user id → sign-in (family id, '' for tokens without one) → entry. */
  readonly #byUser = new Map<string, Map<string, Entry>>();
  #size = 0;
  /** Bumped by every forget: a read that started before it must not be kept. */
  #generation = 0;
  /**
   * Reads under way, by user and sign-in: requests that miss together (the first burst after the
   * entry expired, many clients of one user) share one read instead of each sending its own. Only
   * a read of the current generation is shared, so nobody waits on one that predates a forget.
   */
  readonly #reading = new Map<string, { generation: number; user: Promise<VerifiedUser | null> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(userId: string, familyId: string | null): VerifiedUser | null {
    const entry = this.#byUser.get(userId)?.get(familyId ?? '');
    if (!entry) return null;
    if (entry.expiresAt > this.now()) return entry.user;
    this.#delete(userId, familyId ?? '');
    return null;
  }

  /** Reads through `load` and keeps its answer, unless a forget happened meanwhile. */
  async load(
    userId: string,
    familyId: string | null,
    load: () => Promise<VerifiedUser | null>,
  ): Promise<VerifiedUser | null> {
    const cached = this.get(userId, familyId);
    if (cached) return cached;
    // A user id is a uuid, so the space cannot make two different keys equal.
    const key = `${userId} ${familyId ?? ''}`;
    const reading = this.#reading.get(key);
    if (reading && reading.generation === this.#generation) return reading.user;
    const generation = this.#generation;
    const user = load();
    this.#reading.set(key, { generation, user });
    try {
      const found = await user;
      if (found && generation === this.#generation) this.#set(userId, familyId ?? '', found);
      return found;
    } finally {
      if (this.#reading.get(key)?.user === user) this.#reading.delete(key);
    }
  }

  /** Forgets a user (changed, deleted, signed out everywhere, a sign-in revoked): the next request reads again. */
  forget(userId: string): void {
    this.#generation++;
    const families = this.#byUser.get(userId);
    if (!families) return;
    this.#size -= families.size;
    this.#byUser.delete(userId);
  }

  /** Forgets everyone (an import replaced the users). */
  clear(): void {
    this.#generation++;
    this.#byUser.clear();
    this.#size = 0;
  }

  get size(): number {
    return this.#size;
  }

  #set(userId: string, familyId: string, user: VerifiedUser): void {
    // Bounded without bookkeeping: when full, start again (a burst of reads, then warm again).
    if (this.#size >= this.maxEntries) this.clear();
    let families = this.#byUser.get(userId);
    if (!families) this.#byUser.set(userId, (families = new Map()));
    if (!families.has(familyId)) this.#size++;
    families.set(familyId, { user, expiresAt: this.now() + this.ttlMs });
  }

  #delete(userId: string, familyId: string): void {
    const families = this.#byUser.get(userId);
    if (!families?.delete(familyId)) return;
    this.#size--;
    if (families.size === 0) this.#byUser.delete(userId);
  }
}
