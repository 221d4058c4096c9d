// The stack test's checks through nginx (scripts/ci/stack-test.sh runs them; plain Node, no
// dependencies). Each phase prints one line per check and exits non-zero at the first failure.
//
//   node stack-checks.mjs BASE_URL ADMIN_PASSWORD first|after-restart
//
// first:          health, sign-in (and a wrong password refused), an upload indexed by a worker, a
//                 streamed (SSE) answer quoting it, the password-reset rate limit (429 in the API's shape)
// after-restart:  health, sign-in, the document uploaded before still indexed and answered from
const [base, password, phase] = process.argv.slice(2);
if (!base || !password || !['first', 'after-restart'].includes(phase)) {
  console.error('usage: node stack-checks.mjs BASE_URL ADMIN_PASSWORD first|after-restart');
  process.exit(2);
}
const marker = 'The quartermaster archives every invoice in the cedar vault for eleven years.';

function ok(what) {
  console.log(`  ok   ${what}`);
}
function fail(what, detail) {
  console.log(`  FAIL ${what}${detail ? `: ${detail}` : ''}`);
  process.exit(1);
}
function check(condition, what, detail) {
  if (condition) ok(what);
  else fail(what, typeof detail === 'function' ? detail() : detail);
}
async function call(method, path, { token, json, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (json !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body !== undefined) init.body = body;
  const res = await fetch(base + path, init);
  const text = await res.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, data };
}
async function until(what, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    last = await probe().catch((error) => ({ error: String(error) }));
    if (last?.done) return last;
    if (Date.now() > deadline) fail(what, `not within ${seconds} s (last: ${JSON.stringify(last).slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const health = await until('GET /api/health through nginx answers 200', 120, async () => {
  const answer = await call('GET', '/api/health');
  return { done: answer.status === 200, status: answer.status, body: answer.text.slice(0, 200) };
});
ok(`GET /api/health through nginx answers 200 (${health.body})`);

const wrong = await call('POST', '/api/auth/login', { json: { username: 'admin', password: 'not-the-password' } });
check(wrong.status === 401, 'sign-in with a wrong password answers 401', `${wrong.status} ${wrong.text.slice(0, 200)}`);
const login = await call('POST', '/api/auth/login', { json: { username: 'admin', password } });
check(
  login.status === 200 && typeof login.data?.access_token === 'string',
  'admin signs in with the generated password',
  `${login.status} ${login.text.slice(0, 200)}`,
);
const token = login.data.access_token;

async function indexedCount() {
  const answer = await call('GET', '/api/docs?status=indexed', { token });
  return { done: answer.status === 200 && answer.data?.total >= 1, status: answer.status, total: answer.data?.total };
}

async function askAndCheck(label) {
  const started = performance.now();
  const res = await fetch(`${base}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'How long does the quartermaster archive invoices?' }),
  });
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream'))
    fail(
      `${label}: POST /api/chat streams server-sent events`,
      `${res.status} ${type} ${(await res.text()).slice(0, 300)}`,
    );
  const events = [];
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const bytes of res.body) {
    buffer += decoder.decode(bytes, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) events.push({ type: name, data: JSON.parse(data.join('\n')), at: performance.now() - started });
    }
  }
  const deltas = events.filter((event) => event.type === 'delta');
  const done = events.find((event) => event.type === 'done');
  const answer = deltas.map((event) => event.data.text ?? '').join('');
  check(
    res.status === 200 && deltas.length > 0 && done,
    `${label}: POST /api/chat streams deltas and done as server-sent events`,
    () => JSON.stringify(events).slice(0, 400),
  );
  const cited = JSON.stringify(events).includes('eleven years');
  check(cited, `${label}: the answer is grounded in the uploaded document`, () => answer.slice(0, 300));
}

if (phase === 'first') {
  const boundary = `docqa-stack-${Date.now().toString(16)}`;
  const upload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="archive-policy.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(`Archive policy.\n\n${marker}\n`),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const stored = await call('POST', '/api/docs/upload', {
    token,
    body: upload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  check(
    stored.status === 202,
    'POST /api/docs/upload through nginx answers 202',
    `${stored.status} ${stored.text.slice(0, 300)}`,
  );
  const started = Date.now();
  await until('the upload is indexed by a worker', 120, indexedCount);
  ok(`the upload is indexed by a worker (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await askAndCheck('first start');

  // install.sh's .env: RATE_LIMIT_RESET=10r/m, RATE_LIMIT_RESET_BURST=20 -> 21 requests pass at once.
  const statuses = [];
  let limited;
  for (let i = 0; i < 24; i++) {
    const answer = await call('POST', '/api/auth/forgot-password', { json: { email: 'nobody@example.com' } });
    statuses.push(answer.status);
    if (answer.status === 429) limited ??= answer;
  }
  check(
    !statuses.slice(0, 20).includes(429) && statuses.slice(-2).every((status) => status === 429),
    'POST /api/auth/forgot-password: 429 past RATE_LIMIT_RESET_BURST',
    statuses.join(','),
  );
  check(
    limited?.data?.code === 'rate_limited' && limited.headers.get('content-type')?.startsWith('application/json'),
    'the 429 is JSON with code rate_limited',
    limited?.text.slice(0, 200),
  );
} else {
  const count = await indexedCount();
  check(count.done, 'the document indexed before the restart is still there', JSON.stringify(count));
  await askAndCheck('after the restart');
}
