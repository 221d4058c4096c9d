import { expect } from 'chai';
import sharp from 'sharp';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#1f6feb' } })
    .png()
    .toBuffer();

describe('branding: settings and logo', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let viewer: string;

  const upload = async (body: Blob | Buffer, contentType?: string, token = t.admin) => {
    let request: RequestInit;
    if (contentType) {
      request = {
        method: 'POST',
        body: new Uint8Array(body as Buffer),
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      };
    } else {
      const form = new FormData();
      form.append('file', body as Blob, 'logo');
      request = { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } };
    }
    const res = await fetch(`${t.server.url}/api/branding/logo`, request);
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const currentLogo = async () => {
    const res = await fetch(`${t.server.url}/api/branding/logo`);
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  before(async () => {
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false });
    await t.call('POST', '/api/auth/users', t.admin, { username: 'vera', password: 'vera-password-1', role: 'viewer' });
    viewer = await t.login('vera', 'vera-password-1');
  });
  after(() => t?.stop());

  it("answers DocQA's defaults to anyone before an admin sets anything, and no logo", async () => {
    const res = await t.call('GET', '/api/branding', null);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ name: 'DocQA', logo_url: null, updated_at: null });
    expect(res.body.colors.primary).to.equal('#1f6feb');
    expect((await currentLogo()).status).to.equal(404);
  });

  it('lets an admin replace the branding, validates it, and records config.update', async () => {
    const branding = {
      name: 'Acme Answers',
      colors: { primary: '#112233', accent: '#445566', background: '#fafafa', text: '#000000' },
      texts: { welcome: 'Ask Acme.', footer: '© Acme', support_email: 'help@acme.example' },
    };
    expect((await t.call('PUT', '/api/branding', viewer, branding)).status).to.equal(403);
    const bad = await t.call('PUT', '/api/branding', t.admin, { ...branding, colors: { primary: 'red' } });
    expect([bad.status, bad.body.errors[0].field]).to.deep.equal([422, 'body.colors.primary']);
    expect((await t.call('PUT', '/api/branding', t.admin, { ...branding, script: '<x>' })).status).to.equal(422);
    const res = await t.call('PUT', '/api/branding', t.admin, branding);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ name: 'Acme Answers' });
    expect(res.body.texts).to.deep.equal({ ...branding.texts, chat_placeholder: 'Ask a question…' });
    expect((await t.call('GET', '/api/branding', null)).body.colors).to.deep.equal(branding.colors);
    const audit = await t.call('GET', '/api/audit?type=config.update', t.admin);
    expect(audit.body.items[0]).to.deep.include({ target: 'branding' });
  });

  it('stores a PNG scaled to 512 px at most, served with an ETag that answers 304 when unchanged', async () => {
    expect((await upload(new Blob([new Uint8Array(await png(64, 64))]), undefined, viewer)).status).to.equal(403);
    const res = await upload(new Blob([new Uint8Array(await png(1024, 600))]));
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ media_type: 'image/png', width: 512, height: 300 });
    const served = await currentLogo();
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(served.headers.get('cache-control')).to.include('max-age');
    expect((await sharp(served.bytes).metadata()).width).to.equal(512);
    const etag = served.headers.get('etag')!;
    expect((await fetch(`${t.server.url}/api/branding/logo`, { headers: { 'if-none-match': etag } })).status).to.equal(
      304,
    );
    expect((await t.call('GET', '/api/branding', null)).body.logo_url).to.equal(
      `/api/branding/logo?v=${res.body.sha256.slice(0, 16)}`,
    );
  });

  it('takes a raw JPEG body, and renders a self-contained SVG to PNG', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff0000' } })
      .jpeg()
      .toBuffer();
    expect((await upload(jpeg, 'image/jpeg')).body).to.include({ media_type: 'image/jpeg', width: 40, height: 20 });
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><script>alert(1)</script><rect width="100" height="50" fill="#0a0"/></svg>',
    );
    const stored = await upload(svg, 'image/svg+xml');
    expect(stored.status).to.equal(201);
    expect(stored.body.media_type).to.equal('image/png');
    const served = await currentLogo();
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(served.bytes.includes(Buffer.from('alert'))).to.equal(false);
  });

  it('answers 400 to a form cut short inside a part it ignores, and throws nothing uncaught', async () => {
    // busboy destroys the ignored part's stream when the body ends without its closing boundary: an
    // uncaught exception while nothing listened to that stream.
    const cut = Buffer.from(
      '--cut\r\nContent-Disposition: form-data; name="other"; filename="notes.txt"\r\n' +
        `Content-Type: text/plain\r\n\r\n${'x'.repeat(1000)}`,
    );
    const res = await upload(cut, 'multipart/form-data; boundary=cut');
    expect([res.status, res.body.code]).to.deep.equal([400, 'bad_request']);
    expect((await t.call('GET', '/api/health', null)).status).to.equal(200);
  });

  it('refuses a 20 MB file, a non-image and an unsafe SVG with 4xx, and keeps the old logo', async () => {
    const before = await currentLogo();
    const huge = Buffer.alloc(20 * 1024 * 1024, 1);
    const tooLarge = await upload(huge, 'image/png');
    expect([tooLarge.status, tooLarge.body.code]).to.deep.equal([413, 'payload_too_large']);
    const tooLargeForm = await upload(new Blob([new Uint8Array(huge)]));
    expect(tooLargeForm.status).to.equal(413);
    const text = await upload(Buffer.from('this is not an image at all'), 'image/png');
    expect([text.status, text.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    expect((await upload(Buffer.from('plain'), 'text/plain')).status).to.equal(415);
    const external = await upload(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
      ),
      'image/svg+xml',
    );
    expect([external.status, external.body.detail]).to.satisfy(
      ([status, detail]: [number, string]) => status === 415 && detail.includes('file:///etc/passwd'),
    );
    const entities = await upload(
      Buffer.from(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
      ),
      'image/svg+xml',
    );
    expect(entities.status).to.equal(415);
    const empty = await upload(new Blob([]));
    expect(empty.status).to.equal(422);
    const after = await currentLogo();
    expect(after.bytes.equals(before.bytes)).to.equal(true);
  });
});
