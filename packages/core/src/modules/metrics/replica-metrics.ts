import { Gauge, type Registry } from 'prom-client';
import type { ReadDb } from '@docqa/plugin-api';

/**
 * The read replicas of DATABASE_READ_URL as the kernel's last probe found them, read at scrape time
 * (no query of its own: the probe runs every few seconds anyway). Nothing without replicas.
 */
export class ReplicaMetrics {
  constructor(registry: Registry, readDb: ReadDb) {
    new Gauge({
      name: 'docqa_db_replica_up',
      help: '1 when the read replica answers and is within DATABASE_READ_MAX_LAG_SECONDS (it takes reads), else 0.',
      labelNames: ['replica'],
      registers: [registry],
      collect() {
        this.reset();
        for (const replica of readDb.replicas()) this.set({ replica: replica.name }, replica.status === 'up' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'docqa_db_replica_lag_seconds',
      help: 'How far the read replica is behind the primary, in seconds (left out while it is down).',
      labelNames: ['replica'],
      registers: [registry],
      collect() {
        this.reset();
        for (const replica of readDb.replicas())
          if (replica.lagSeconds !== null) this.set({ replica: replica.name }, replica.lagSeconds);
      },
    });
  }
}
