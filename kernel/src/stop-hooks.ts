import type { Logger } from '@docqa/plugin-api';

/**
 * Cleanup registered as plugins or modules start, run in reverse order at stop, with the shutdown
 * signal they were given. One hook failing is logged and does not keep the others from running.
 */
export class StopHooks {
  readonly #hooks: Array<{ owner: string; hook: () => Promise<void> | void }> = [];
  readonly #shutdown = new AbortController();

  constructor(
    private readonly logger: Logger,
    private readonly kind: 'plugin' | 'module',
  ) {}

  /** Aborted when the stop begins. */
  get signal(): AbortSignal {
    return this.#shutdown.signal;
  }

  add(owner: string, hook: () => Promise<void> | void): void {
    this.#hooks.push({ owner, hook });
  }

  async run(): Promise<void> {
    this.#shutdown.abort();
    for (const { owner, hook } of this.#hooks.reverse()) {
      try {
        await hook();
      } catch (error) {
        this.logger.error({ err: error, [this.kind]: owner }, `${this.kind} stop failed`);
      }
    }
    this.#hooks.length = 0;
  }
}
