import type { Logger, SqlExecutor } from '@docqa/plugin-api';
import type { Principal } from '@docqa/core/identity';
import type { ChatService } from '@docqa/core/chat';
import type { DocumentService } from '@docqa/core/documents';
import type { SearchService } from '@docqa/core/search';

/** What a tool or resource does, each gated as the REST endpoint that does the same. */
export type McpCapability = 'search' | 'ask' | 'list_documents' | 'get_document';

/** One MCP request's world: the caller, the services the REST routes use, and the gate. */
export interface McpContext {
  services: { search: SearchService; chat: ChatService; documents: DocumentService };
  db: SqlExecutor;
  logger: Logger;
  principal: Principal;
  /** For the audit log of questions. */
  clientIp: string | null;
  /**
   * Throws the DocqaError the REST endpoint would answer (role, API key scope, plan) when the
   * caller may not use `capability`; runs before a tool looks at any id.
   */
  authorize(capability: McpCapability): Promise<void>;
}

/** The URI of a document as an MCP resource. */
export const documentUri = (id: string) => `docqa://documents/${id}`;
export const documentUriTemplate = 'docqa://documents/{id}';
