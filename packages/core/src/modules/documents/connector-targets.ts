import { DocqaError, type ConnectorStorage, type FieldError } from '@docqa/plugin-api';
import type { SourceRow, SourceService } from '../sources/contract.js';

/** A path inside a source as the API takes it: relative, normalised, no way out (the plugin checks again). */
export function isRelativeSourcePath(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= 1024 &&
    !value.startsWith('/') &&
    !value.includes('\\') &&
    !value.split('/').some((part) => part === '..' || part === '.' || part === '')
  );
}

/** A connector whose storage an upload, a move or a delete writes to. */
export interface ConnectorTarget {
  source: SourceRow;
  storage: ConnectorStorage;
}

/**
 * Finds the connector a request names and opens its storage, answering what the decisions file
 * fixes: an unknown id is 404; an integration, or a connector whose plugin cannot store files
 * (no `storage` capability), is 422 naming the field the id came from.
 */
export class ConnectorTargets {
  constructor(private readonly sources: SourceService) {}

  async resolve(connectorId: string, field: string): Promise<ConnectorTarget> {
    const source = await this.sources.byId(connectorId);
    if (!source) throw new DocqaError('not_found', `Connector ${connectorId} was not found.`);
    const refuse = (reason: string) =>
      new DocqaError('validation_failed', `${source.name} ${reason}.`, { errors: [{ field, message: reason }] });
    if (source.kind !== 'connector') throw refuse('is an integration: DocQA reads it but cannot store files in it');
    const provider = this.sources.provider(source.kind, source.type);
    if (!provider.capabilities.storage || !provider.openStorage)
      throw refuse(`is a ${provider.displayName} connector, which DocQA reads but cannot store files in`);
    try {
      return {
        source,
        storage: await provider.openStorage(provider.sourceConfigSchema.parse(this.sources.fullConfig(source)), {
          sourceId: source.id,
        }),
      };
    } catch (error) {
      // The connector's own directory (or bucket) is no longer usable: say so on the field that named it.
      if (!DocqaError.is(error, 'validation_failed')) throw error;
      throw new DocqaError('validation_failed', `${source.name} cannot store files now: ${error.message}`, {
        errors: [{ field, message: 'its storage cannot be used now' }],
        cause: error,
      });
    }
  }
}

/**
 * A storage error with the plugin's argument names (`path`, `from`, `to`) renamed to the request
 * fields they came from, so a 422 or 409 points at what the client sent.
 */
export function inRequestTerms(error: unknown, fields: Record<string, string>): unknown {
  if (!DocqaError.is(error) || !error.errors) return error;
  const errors: FieldError[] = error.errors.map((entry) => ({ ...entry, field: fields[entry.field] ?? entry.field }));
  return new DocqaError(error.code, error.message, { errors, extra: error.extra, cause: error });
}
