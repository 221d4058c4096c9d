import type pg from 'pg';
import { DocqaError, type FieldError, type Logger, type SettingsService } from '@docqa/plugin-api';
import { InvalidValue } from '../config/parsers.js';
import {
  seedVariables,
  variables,
  type ConfigValues,
  type VariableName,
  type VariableSpec,
} from '../config/variables.js';

const seedNames = new Set<string>(seedVariables);

/**
 * How long a change made on one replica takes at most to count on the others: settings are polled
 * this often, and what processes keep of other shared state (verified tokens, group grants) expires
 * after it, so one bound holds for all of it.
 */
export const propagationSeconds = 5;

/**
 * Runtime settings: the variables the spec marks "seed". The first start writes the environment's
 * values into runtime_setting; from then on that table is authoritative and the environment's value
 * is ignored (with a warning when they differ). Other replicas pick a change up within
 * `pollSeconds`; the replica that made it applies it at once.
 */
export class DbSettingsService implements SettingsService {
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #values = new Map<string, unknown>();
  readonly #listeners = new Set<(changed: Record<string, unknown>) => void>();
  #timer: NodeJS.Timeout | null = null;
  readonly propagationSeconds = propagationSeconds;

  constructor(pool: pg.Pool, logger: Logger) {
    this.#pool = pool;
    this.#logger = logger.child({ component: 'settings' });
  }

  /** Seeds missing settings from the environment, then loads the table. */
  async start(
    config: ConfigValues,
    explicitlySet: ReadonlySet<string>,
    pollSeconds = propagationSeconds,
  ): Promise<void> {
    const seeds = Object.fromEntries(seedVariables.map((name) => [name, config[name]]));
    await this.#pool.query(
      "insert into runtime_setting (key, value, updated_by) select key, value, 'seed' " +
        'from jsonb_each($1::jsonb) on conflict (key) do nothing',
      [JSON.stringify(seeds)],
    );
    await this.#reload();
    for (const name of seedVariables) {
      if (explicitlySet.has(name) && JSON.stringify(this.#values.get(name)) !== JSON.stringify(config[name])) {
        this.#logger.warn(
          { variable: name },
          `${name} in the environment differs from the stored runtime setting ` +
            `(${JSON.stringify(this.#values.get(name))}); the stored one applies since first start. Change it ` +
            'through the settings API.',
        );
      }
    }
    this.#timer = setInterval(
      () => void this.#reload().catch((error) => this.#logger.warn({ err: error }, 'settings refresh failed')),
      pollSeconds * 1000,
    );
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  get(key: string): unknown {
    if (!this.#values.has(key)) throw new DocqaError('internal', `'${key}' is not a runtime setting`);
    return this.#values.get(key);
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(this.#values);
  }

  onChange(listener: (changed: Record<string, unknown>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Validates every change first (one 422 listing all bad ones), then writes them together. */
  async set(changes: Record<string, unknown>, actor?: string): Promise<Record<string, unknown>> {
    const errors: FieldError[] = [];
    const parsed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes)) {
      if (!seedNames.has(key)) {
        errors.push({ field: key, message: key in variables ? 'is not changeable at run time' : 'is not a setting' });
        continue;
      }
      try {
        if (value === null || typeof value === 'object') throw new InvalidValue('must be a string, number or boolean');
        parsed[key] = (variables[key as VariableName] as VariableSpec<unknown>).parse(String(value));
      } catch (error) {
        if (!(error instanceof InvalidValue)) throw error;
        errors.push({ field: key, message: error.message });
      }
    }
    if (errors.length > 0) {
      throw new DocqaError('validation_failed', 'Some settings are not valid.', { errors });
    }
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      for (const [key, value] of Object.entries(parsed)) {
        await client.query(
          'update runtime_setting set value = $2::jsonb, updated_at = ' +
            'clock_timestamp(), updated_by = $3 where key = $1',
          [key, JSON.stringify(value), actor ?? null],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    this.#apply(parsed);
    return this.all();
  }

  async #reload(): Promise<void> {
    // The table has a row per seed variable; reading it whole and diffing is cheaper than being
    // clever about which rows changed, and cannot miss a commit that landed out of order.
    const { rows } = await this.#pool.query<{ key: string; value: unknown }>('select key, value from runtime_setting');
    const changed: Record<string, unknown> = {};
    for (const row of rows) {
      if (!seedNames.has(row.key)) continue;
      if (JSON.stringify(this.#values.get(row.key)) !== JSON.stringify(row.value)) changed[row.key] = row.value;
    }
    this.#apply(changed);
  }

  #apply(changed: Record<string, unknown>): void {
    const keys = Object.keys(changed);
    if (keys.length === 0) return;
    for (const key of keys) this.#values.set(key, changed[key]);
    for (const listener of this.#listeners) listener(changed);
  }
}
