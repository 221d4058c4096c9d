import nodeHttp from 'isomorphic-git/http/node';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';

/**
 * isomorphic-git's node HTTP client takes no AbortSignal. This wrapper makes a clone or fetch stop
 * promptly anyway: it refuses to start a request once the signal is aborted, stops waiting for a
 * pending response, and fails the next body chunk, which makes isomorphic-git give up the transfer.
 */
export function abortableHttp(signal: AbortSignal): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      signal.throwIfAborted();
      const response = await raceAbort(nodeHttp.request(request), signal);
      return { ...response, body: response.body ? abortableBody(response.body, signal) : response.body };
    },
  };
}

async function* abortableBody(body: AsyncIterableIterator<Uint8Array>, signal: AbortSignal): AsyncIterableIterator<Uint8Array> {
  for await (const chunk of body) {
    signal.throwIfAborted();
    yield chunk;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
