import { pageSize } from '../../api/client';
import type { ConversationSummary, Page } from '../../api/types';
import { ConfirmButton, Pager } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { Link } from '../../lib/router';

interface Props {
  page: Page<ConversationSummary> | undefined;
  currentId: string | null;
  error: string | null;
  onDelete(id: string): void;
  onOffset(offset: number): void;
}

export function ConversationList({ page, currentId, error, onDelete, onOffset }: Props) {
  const conversations = page?.items;
  return (
    <nav className="conversations" aria-labelledby="conversations-heading">
      <div className="conversations-head">
        <h2 id="conversations-heading">Conversations</h2>
        <Link to="/" className="button small">
          New
        </Link>
      </div>
      {error ? <p className="hint">{error}</p> : null}
      {conversations && conversations.length === 0 ? <p className="hint">No conversations yet.</p> : null}
      <ul>
        {(conversations ?? []).map((conversation) => (
          <li key={conversation.id} className={conversation.id === currentId ? 'current' : undefined}>
            <Link to={`/chat/${conversation.id}`} aria-current={conversation.id === currentId ? 'page' : undefined}>
              <span className="conversation-title">{conversation.title || 'Untitled'}</span>
              <span className="hint">
                {formatDate(conversation.updated_at)} · {conversation.turns} turn{conversation.turns === 1 ? '' : 's'}
              </span>
            </Link>
            <ConfirmButton
              label={`Delete conversation ${conversation.title}`}
              onConfirm={() => onDelete(conversation.id)}
            >
              <span aria-hidden="true">✕</span>
            </ConfirmButton>
          </li>
        ))}
      </ul>
      {page ? (
        <Pager
          total={page.total}
          limit={pageSize}
          offset={page.offset}
          onOffset={onOffset}
          label="Pages of conversations"
        />
      ) : null}
    </nav>
  );
}
