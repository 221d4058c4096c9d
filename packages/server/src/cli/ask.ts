import { parseArgs } from 'node:util';
import { createDocqaClient, DocqaClientError, type ChatDone } from '@docqa/client';

export const askUsage = `Usage: docqa ask "<question>" [--url <url>] [--key <key>] [--conversation <id>]

  Asks a running DocQA over its HTTP API, prints the answer as it arrives, then its sources.
  --url           where DocQA is served (default: DOCQA_URL), such as http://127.0.0.1:8000
  --key           a personal API key with the read scope (default: DOCQA_API_KEY)
  --conversation  continue this conversation (an id printed by an earlier answer)
  Exit codes: 0 answered, 1 DocQA failed, 2 usage, 3 key refused (401), 4 not allowed (403),
  5 DocQA not reachable.
`;

export interface AskIo {
  env: Record<string, string | undefined>;
  /** Writes text as it is, without a newline: the answer arrives in pieces. */
  write(text: string): void;
  err(line: string): void;
}

/** `docqa ask`: a client of a DocQA elsewhere, so it needs no configuration or database here. */
export async function runAsk(argv: string[], io: AskIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        conversation: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${askUsage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.write(askUsage);
    return 0;
  }
  const question = positionals.join(' ').trim();
  const url = values.url ?? io.env.DOCQA_URL;
  const key = values.key ?? io.env.DOCQA_API_KEY;
  const missing = !question ? 'No question given.' : !url ? 'No DocQA URL: pass --url or set DOCQA_URL.' : null;
  if (missing || !url) {
    io.err(`${missing}\n${askUsage}`);
    return 2;
  }
  if (!key) {
    io.err('No API key: pass --key or set DOCQA_API_KEY (create one under Account → API keys).');
    return 2;
  }
  const client = createDocqaClient({ baseUrl: url, apiKey: key });
  let started = false;
  try {
    const body = { query: question, ...(values.conversation ? { conversation_id: values.conversation } : {}) };
    for await (const event of client.chatStream(body)) {
      if (event.type === 'delta') {
        started = true;
        io.write(event.text);
      } else io.write(`${started ? '\n' : ''}${describeSources(event.done)}`);
    }
    return 0;
  } catch (error) {
    if (started) io.write('\n');
    return reportFailure(error, url, io);
  }
}

function describeSources(done: ChatDone): string {
  const lines = ['', done.sources.length ? 'Sources:' : 'Sources: none (no passage matched).'];
  for (const source of done.sources) {
    const where = source.path && source.path !== source.title ? ` (${source.path})` : '';
    lines.push(`  [${source.index}] ${source.title}${where}`);
  }
  lines.push('', `Conversation: ${done.conversation_id}`);
  return `${lines.join('\n')}\n`;
}

function reportFailure(error: unknown, url: string, io: AskIo): number {
  if (!(error instanceof DocqaClientError)) {
    io.err(`docqa ask failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  if (error.status === null) {
    io.err(`${error.message} Is it running, and is --url (or DOCQA_URL) right?`);
    return 5;
  }
  if (error.status === 401) {
    io.err(`DocQA at ${url} refused the API key (401 ${error.code}): ${error.message}`);
    return 3;
  }
  if (error.status === 403) {
    io.err(`The API key may not ask questions (403 ${error.code}): ${error.message}`);
    return 4;
  }
  io.err(`DocQA could not answer (${error.status} ${error.code}): ${error.message}`);
  return 1;
}
