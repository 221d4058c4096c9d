/**
 * Bridges node-llama-cpp's callbacks (a text chunk arrives) to pull-based async iteration: pieces
 * are buffered until the consumer asks for them, then the end or the failure is delivered after the
 * last piece. The buffer is bounded by the request's maxTokens, as every piece holds a token.
 */
export class PieceQueue implements AsyncIterable<string> {
  private readonly pieces: string[] = [];
  private outcome: { done: true } | { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(piece: string): void {
    if (this.outcome || piece === '') return;
    this.pieces.push(piece);
    this.notify();
  }

  end(): void {
    this.outcome ??= { done: true };
    this.notify();
  }

  fail(error: unknown): void {
    this.outcome ??= { error };
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    while (true) {
      const piece = this.pieces.shift();
      if (piece !== undefined) {
        yield piece;
        continue;
      }
      if (this.outcome) {
        if ('error' in this.outcome) throw this.outcome.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
