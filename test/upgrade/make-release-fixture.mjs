// Fills a running DocQA (an earlier release) with what an installation holds after some use, for
// the upgrade test's fixture: a second user, two indexed documents and a conversation. Then dump
// its database (schema public; pg-boss makes its own schema again) as plain INSERTs, which PGlite
// and PostgreSQL both load. Start the release with LOG_LEVEL unset: the level is a stored runtime
// setting, and the test waits for the server's "listening" line, logged at INFO.
//
//   node test/upgrade/make-release-fixture.mjs http://127.0.0.1:18411 <admin password>
//   pg_dump --schema=public --inserts --no-owner --no-privileges --no-comments "$DATABASE_URL" \
//     | grep -v '^\\\(un\)\?restrict ' > test/upgrade/release-<commit>.sql
//
// (recent pg_dump brackets its output in psql's \restrict meta-commands, which only psql reads).
//
// Plain JavaScript on purpose: it runs against a checkout of any release, with no build of this one.
const [url, password] = process.argv.slice(2);
if (!url || !password) throw new Error('usage: make-release-fixture.mjs <base url> <admin password>');

async function call(method, route, token, body) {
  const res = await fetch(url + route, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

const admin = (await call('POST', '/api/auth/login', null, { username: 'admin', password })).access_token;
await call('POST', '/api/auth/users', admin, {
  username: 'vera',
  password: 'vera-password-1',
  role: 'viewer',
  email: 'vera@example.com',
});

const form = new FormData();
const files = {
  'zorblax-manual.txt': 'Zorblax-1 cooling\n\nThe cooling period of the Zorblax-1 lasts nine hours. Region: EU.',
  'travel-policy.txt':
    'Travel policy\n\nEmployees book trains for trips under four hours. Hotels are booked by the office.',
};
for (const [name, text] of Object.entries(files)) form.append('file', new Blob([text]), name);
const uploaded = await fetch(`${url}/api/docs/upload`, {
  method: 'POST',
  body: form,
  headers: { authorization: `Bearer ${admin}` },
});
if (uploaded.status !== 202) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
const deadline = Date.now() + 120_000;
for (;;) {
  const page = await call('GET', '/api/docs?limit=50', admin);
  if (page.items.length === 2 && page.items.every((item) => item.status === 'indexed')) break;
  if (Date.now() > deadline) throw new Error(`not indexed in time: ${JSON.stringify(page.items)}`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const vera = (await call('POST', '/api/auth/login', null, { username: 'vera', password: 'vera-password-1' }))
  .access_token;
const answer = await call('POST', '/api/chat', vera, { query: 'How long is the cooling period of the Zorblax-1?' });
console.log(JSON.stringify({ conversation_id: answer.conversation_id, answer: answer.answer }));
