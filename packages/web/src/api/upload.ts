import { ApiError, refreshTokens } from './http';
import { session } from './session';
import type { DocumentRecord } from './types';

export interface UploadHandle {
  done: Promise<DocumentRecord[]>;
  abort(): void;
}

function send(
  url: string,
  files: File[],
  onProgress: (loaded: number, total: number) => void,
): { xhr: XMLHttpRequest; done: Promise<{ status: number; body: Record<string, unknown> }> } {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  const done = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // Not JSON: the status speaks.
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
  });
  xhr.open('POST', url);
  xhr.setRequestHeader('accept', 'application/json');
  const token = session.tokens?.access_token;
  if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
  xhr.send(form);
  return { xhr, done };
}

/**
 * POST /api/docs/upload as multipart form data (parts named `file`) with XMLHttpRequest, whose
 * upload events report progress (fetch has none for request bodies).
 */
export function uploadDocuments(files: File[], onProgress: (loaded: number, total: number) => void): UploadHandle {
  let current = send('/api/docs/upload', files, onProgress);
  let aborted = false;
  const done = (async () => {
    let answer = await current.done;
    if (answer.status === 401 && answer.body.code === 'token_expired' && !aborted && (await refreshTokens())) {
      current = send('/api/docs/upload', files, onProgress);
      answer = await current.done;
    }
    if (answer.status !== 202 && answer.status !== 200) {
      throw new ApiError(
        answer.status,
        String(answer.body.code ?? 'http_error'),
        String(answer.body.detail ?? `The upload answered ${answer.status}.`),
        answer.body,
      );
    }
    return (answer.body.documents ?? []) as DocumentRecord[];
  })();
  return {
    done,
    abort() {
      aborted = true;
      current.xhr.abort();
    },
  };
}
