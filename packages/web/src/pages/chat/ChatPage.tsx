import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { streamChat } from '../../api/chat-stream';
import { describeError } from '../../api/http';
import type { Conversation, FeedbackRating } from '../../api/types';
import { useApp } from '../../app-context';
import { Alert, Loading, PageHeader } from '../../components/ui';
import { navigate } from '../../lib/router';
import { useAsync } from '../../lib/use-async';
import { AnswerView, type DisplayTurn } from './AnswerView';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';

const fromStored = (conversation: Conversation): DisplayTurn[] =>
  conversation.turns.map((turn, i) => ({
    ...turn,
    key: `${conversation.id}-${i}`,
    sources: turn.sources ?? [],
    status: 'done',
  }));

export function ChatPage({ conversationId }: { conversationId: string | null }) {
  const { branding } = useApp();
  const [offset, setOffset] = useState(0);
  const conversations = useAsync(() => api.conversations.list({ offset }), [offset]);
  const reloadConversations = conversations.reload;
  const [turns, setTurns] = useState<DisplayTurn[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [streaming, setStreaming] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const abortRef = useRef<AbortController | null>(null);
  // The conversation the page already shows (one just started by streaming is not loaded again).
  const shownRef = useRef<string | null>(null);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (conversationId === shownRef.current) return;
    abortRef.current?.abort();
    shownRef.current = conversationId;
    setLoadError(null);
    if (!conversationId) {
      setTurns([]);
      return;
    }
    setLoading(true);
    api.conversations
      .get(conversationId)
      .then(
        (conversation) => setTurns(fromStored(conversation)),
        (reason: unknown) => setLoadError(describeError(reason)),
      )
      .finally(() => setLoading(false));
  }, [conversationId]);

  useEffect(() => () => abortRef.current?.abort(), []);
  // Effects return nothing: scrollIntoView answers a promise in newer browsers, which React would call.
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [turns]);

  const update = (key: string, change: (turn: DisplayTurn) => Partial<DisplayTurn>) =>
    setTurns((all) => all.map((turn) => (turn.key === key ? { ...turn, ...change(turn) } : turn)));

  const send = useCallback(
    async (query: string) => {
      const key = `new-${Date.now()}`;
      const controller = new AbortController();
      abortRef.current = controller;
      setTurns((all) => [
        ...all,
        {
          key,
          query,
          answer: '',
          sources: [],
          token_budget: null,
          timing: null,
          retrieval_settings: null,
          status: 'streaming',
        },
      ]);
      setStreaming(true);
      setAnnouncement('Answering…');
      try {
        await streamChat(
          { query, conversation_id: shownRef.current },
          {
            onDelta: (text) => update(key, (turn) => ({ answer: turn.answer + text })),
            onDone: (meta) => {
              update(key, () => ({
                sources: meta.sources,
                token_budget: meta.token_budget,
                timing: meta.timing,
                retrieval_settings: meta.retrieval_settings,
                status: 'done',
              }));
              setAnnouncement(
                `Answer complete, with ${meta.sources.length} source${meta.sources.length === 1 ? '' : 's'}.`,
              );
              if (meta.conversation_id && meta.conversation_id !== shownRef.current) {
                shownRef.current = meta.conversation_id;
                navigate(`/chat/${meta.conversation_id}`, { replace: true });
              }
            },
            onError: (detail) => {
              update(key, () => ({ status: 'error', error: detail }));
              setAnnouncement('The answer failed.');
            },
          },
          controller.signal,
        );
      } catch (reason) {
        if (controller.signal.aborted) {
          update(key, () => ({ status: 'stopped' }));
          setAnnouncement('Stopped.');
        } else update(key, () => ({ status: 'error', error: describeError(reason) }));
      } finally {
        setStreaming(false);
        reloadConversations();
      }
    },
    [reloadConversations],
  );

  const remove = async (id: string) => {
    try {
      await api.conversations.remove(id);
      if (id === shownRef.current) navigate('/');
    } finally {
      reloadConversations();
    }
  };

  // Failed and stopped answers are not saved; the stored conversation keeps only its newest turns
  // (RAG_CONVERSATION_MAX_TURNS), so a turn's stored index is counted from the end, at the moment of rating.
  let saved = 0;
  const savedBefore = turns.map((turn) => (turn.status === 'done' ? saved++ : null));
  const rateFor = (turn: DisplayTurn, before: number | null | undefined) => {
    if (before === null || before === undefined || !conversationId || turn.status !== 'done') return undefined;
    const later = saved - 1 - before;
    return async (rating: FeedbackRating | null, comment?: string) => {
      const stored = await api.conversations.get(conversationId);
      const index = stored.turns.length - 1 - later;
      if (index < 0) throw new Error('This answer is no longer kept in the conversation.');
      const { feedback } = await api.conversations.setFeedback(conversationId, index, { rating, comment });
      update(turn.key, () => ({ feedback }));
      return feedback;
    };
  };

  return (
    <div className="chat-layout">
      <ConversationList
        page={conversations.data}
        onOffset={setOffset}
        currentId={conversationId}
        error={conversations.error}
        onDelete={(id) => void remove(id)}
      />
      <section className="chat">
        <PageHeader title="Chat" />
        <Alert>{loadError}</Alert>
        {loading ? <Loading label="Loading the conversation…" /> : null}
        {turns.length === 0 && !loading ? <p className="welcome">{branding.texts.welcome}</p> : null}
        <ol className="thread" aria-label="Conversation">
          {turns.map((turn, i) => (
            <AnswerView key={turn.key} turn={turn} onRate={rateFor(turn, savedBefore[i])} />
          ))}
        </ol>
        <div ref={endRef} />
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
        <Composer
          placeholder={branding.texts.chat_placeholder}
          streaming={streaming}
          onSend={(query) => void send(query)}
          onStop={() => abortRef.current?.abort()}
        />
      </section>
    </div>
  );
}
