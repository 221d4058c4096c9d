import type { LlamaContextSequence } from 'node-llama-cpp';
import { DocqaError, type Logger } from '@docqa/plugin-api';

interface Waiter {
  resolve(sequence: LlamaContextSequence): void;
  reject(reason: unknown): void;
}

/**
 * The context's sequences, lent out one per generation. A request that finds none free waits in
 * line (first come, first served) until one is returned, its signal aborts, or the pool closes.
 */
export class SequencePool {
  private readonly free: LlamaContextSequence[];
  private readonly waiters: Waiter[] = [];
  private closed = false;

  /** `replace` makes a new sequence for one the native side disposed (null when it cannot). */
  constructor(
    sequences: LlamaContextSequence[],
    private readonly replace: () => LlamaContextSequence | null,
    private readonly logger: Logger,
  ) {
    this.free = [...sequences];
  }

  /** Requests waiting for a sequence now. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Sequences not lent out now. */
  get available(): number {
    return this.free.length;
  }

  /** A free sequence, at once or when one is returned; rejects with the signal's reason when it aborts first. */
  acquire(signal: AbortSignal): Promise<LlamaContextSequence> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(closedError());
    const sequence = this.free.pop();
    if (sequence) return Promise.resolve(sequence);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(signal.reason);
      };
      // Settling removes the listener, so a waiter handed a sequence can no longer be cancelled.
      const waiter: Waiter = {
        resolve: (lent) => {
          signal.removeEventListener('abort', onAbort);
          resolve(lent);
        },
        reject: (reason) => {
          signal.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * Takes a sequence back with its state cleared, so the next request starts from an empty context
   * and sees nothing of this one, and hands it to the first waiter.
   */
  async release(returned: LlamaContextSequence): Promise<void> {
    if (this.closed) return;
    const sequence = returned.disposed ? this.replacement() : returned;
    if (!sequence) return;
    try {
      await sequence.clearHistory();
    } catch (error) {
      // The next generation aligns the sequence with its own prompt anyway; keep the capacity.
      this.logger.warn({ err: error }, 'clearing a sequence of the chat model failed');
    }
    const next = this.waiters.shift();
    if (next) next.resolve(sequence);
    else this.free.push(sequence);
  }

  /** A fresh sequence instead of a disposed one, so a native failure does not shrink the pool for good. */
  private replacement(): LlamaContextSequence | null {
    try {
      return this.replace();
    } catch (error) {
      this.logger.error(
        { err: error },
        'a sequence of the chat model was lost and cannot be replaced; fewer requests run at once',
      );
      return null;
    }
  }

  /** Refuses new requests and fails the waiting ones; the context (and its sequences) is disposed by its owner. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(closedError());
  }
}

function closedError(): DocqaError {
  return new DocqaError('unavailable', 'the local chat model is shutting down; try again when DocQA is back');
}
