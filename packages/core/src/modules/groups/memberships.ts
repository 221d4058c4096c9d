/**
 * Which groups each user is in, kept for a few seconds so that a viewer's searches, chats and lists
 * do not each read them again. This process forgets a user at once when StoredGroups changes their
 * membership (every group when a group is deleted); another process's change counts here within
 * `ttlMs`, the delay within which replicas pick up a runtime setting (the kernel's
 * propagationSeconds: modules do not import the kernel, so the figure is repeated here).
 */
export const membershipSeconds = 5;

export class Memberships {
  readonly #byUser = new Map<string, { groupIds: string[]; expiresAt: number }>();
  /** Bumped by every forget: a read under way at the time may predate the change and is not kept. */
  #generation = 0;
  /**
   * Reads under way: a user's requests that miss together (the first burst after the entry expired)
   * share one read. Only a read of the current generation is shared, never one from before a forget.
   */
  readonly #reading = new Map<string, { generation: number; groupIds: Promise<string[]> }>();

  constructor(
    private readonly ttlMs = membershipSeconds * 1000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async load(userId: string, read: () => Promise<string[]>): Promise<string[]> {
    const entry = this.#byUser.get(userId);
    if (entry && entry.expiresAt > this.now()) return entry.groupIds;
    const reading = this.#reading.get(userId);
    if (reading && reading.generation === this.#generation) return reading.groupIds;
    const generation = this.#generation;
    const pending = read();
    this.#reading.set(userId, { generation, groupIds: pending });
    try {
      const groupIds = await pending;
      if (generation === this.#generation) {
        if (this.#byUser.size >= this.maxEntries) this.#byUser.clear();
        this.#byUser.set(userId, { groupIds, expiresAt: this.now() + this.ttlMs });
      }
      return groupIds;
    } finally {
      if (this.#reading.get(userId)?.groupIds === pending) this.#reading.delete(userId);
    }
  }

  forget(userId: string): void {
    this.#generation++;
    this.#byUser.delete(userId);
  }

  clear(): void {
    this.#generation++;
    this.#byUser.clear();
  }
}
