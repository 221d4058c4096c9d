import type { AuditService, Logger } from '@docqa/plugin-api';

/**
 * Until an audit store is configured, events are structured log lines (`audit: true`), so nothing
 * is lost and a log pipeline can already collect them.
 */
export function logAuditService(logger: Logger): AuditService {
  const log = logger.child({ component: 'audit' });
  return {
    async record(event) {
      log.info(
        {
          audit: true,
          event: event.type,
          actor: event.actor?.id ?? null,
          ip: event.ip ?? null,
          target: event.target ?? null,
          outcome: event.outcome,
          details: event.details,
        },
        `audit ${event.type}`,
      );
    },
  };
}
