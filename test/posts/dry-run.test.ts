// POST /v1/posts?dry_run=true over real HTTP: the create's judgement of the request, each account's
// network's judgement of the post, and nothing stored or consumed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let youtube: TestAccount;
let tiktok: TestAccount;
let instagram: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'dry_x');
  youtube = await server.addAccount(org, 'youtube', 'dry_yt');
  tiktok = await server.addAccount(org, 'tiktok', 'dry_tt');
  instagram = await server.addAccount(org, 'instagram', 'dry_ig');
});
after(() => server.close());

const dryRun = (body: unknown, headers: Record<string, string> = {}, query = 'dry_run=true') =>
  server.request('POST', `/v1/posts?${query}`, { key: org.key, body, headers });
const image = { url: 'https://cdn.example.com/cat.png', filename: 'cat.png' };
const video = { url: 'https://cdn.example.com/clip.mp4', filename: 'clip.mp4' };

describe('a valid request', () => {
  test('one destination per resolved account, in the order of `accounts`; each network judges the post', async () => {
    const res = await dryRun({ accounts: [youtube.username, x.id, tiktok.id, instagram.id], containers: [{ content: 'A clip', media: [video] }] });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.dryRun, true);
    assert.equal('post' in res.body, false);
    assert.deepEqual(res.body.destinations.map((d: any) => d.accountId), [youtube.id, x.id, tiktok.id, instagram.id]);
    assert.deepEqual(res.body.destinations[1], {
      accountId: x.id, network: 'x', username: 'dry_x', ok: true, reasons: [],
      preview: { parts: [{ role: 'post', text: 'A clip', length: 6, limit: 280, unit: 'weighted', media: [{ filename: 'clip.mp4', kind: 'video' }] }], leftOut: 0 },
    });
  });

  test('each destination previews the thread as its network publishes it: each part\'s text counted its way, its limit, its media', async () => {
    const bluesky = await server.addAccount(org, 'bluesky', 'dry-preview.bsky.social');
    // X counts the emoji 2 and the link 23 (5 + 2 + 1 + 23 + 1 + 260 = 292); Bluesky sees 7 + 24 + 1 + 260 graphemes.
    const long = `Look 👀 https://example.com/path ${'a'.repeat(260)}`;
    const res = await dryRun({
      accounts: [x.id, bluesky.id, instagram.id],
      containers: [{ content: long, media: [image] }, { content: 'Second part' }],
      instagram: { content: 'Caption for the grid' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [onX, onBluesky, onInstagram] = res.body.destinations;
    assert.deepEqual(onX.preview.parts.map((p: any) => [p.role, p.length, p.limit, p.unit]), [['post', 292, 280, 'weighted'], ['reply', 11, 280, 'weighted']]);
    assert.deepEqual(onX.preview.parts[0].media, [{ filename: 'cat.png', kind: 'image' }]);
    assert.deepEqual([onX.ok, onX.reasons], [false, ['x: container 1 is 292 characters as X counts them; X allows 280 (links count 23, most CJK characters and every emoji 2)']]);
    assert.deepEqual(onBluesky.preview.parts.map((p: any) => [p.role, p.length, p.limit, p.unit]), [['post', 292, 300, 'graphemes'], ['reply', 11, 300, 'graphemes']]);
    assert.equal(onBluesky.ok, true);
    assert.deepEqual(onInstagram.preview, {
      parts: [
        { role: 'post', text: 'Caption for the grid', length: 20, limit: 2200, unit: 'characters', media: [{ filename: 'cat.png', kind: 'image' }] },
        { role: 'comment', text: 'Second part', length: 11, limit: null, unit: 'characters', media: [] },
      ],
      leftOut: 0,
    });
  });

  test('a network that titles a video shows the title apart; one that takes no replies says how many containers it leaves out', async () => {
    const res = await dryRun({ accounts: [youtube.id, tiktok.id], containers: [{ content: 'Morning run\nalong the river', media: [video] }, { content: 'Thanks for watching' }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [onYoutube, onTiktok] = res.body.destinations;
    assert.deepEqual(onYoutube.preview.parts.map((p: any) => [p.role, p.title?.text, p.text, p.length, p.unit]), [
      ['post', 'Morning run', 'Morning run\nalong the river', 27, 'utf8_bytes'],
      ['comment', undefined, 'Thanks for watching', 19, 'characters'],
    ]);
    assert.deepEqual(onYoutube.preview.parts[0].title, { text: 'Morning run', length: 11, limit: 100, unit: 'characters' });
    assert.equal(onTiktok.preview.leftOut, 1);
    assert.deepEqual(onTiktok.preview.parts.map((p: any) => [p.text, p.note]), [['', 'sent to the creator\'s TikTok inbox as a draft, without a caption: they write it in TikTok']]);
  });

  test('a text over X\'s or Bluesky\'s length (left to publishing by the spec) is not ok there, in publishing\'s words', async () => {
    const bluesky = await server.addAccount(org, 'bluesky', 'dry-len.bsky.social');
    const res = await dryRun({ accounts: [x.id, bluesky.id], content: 'a'.repeat(349) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.destinations.map((d: any) => [d.network, d.ok, d.reasons]), [
      ['x', false, ['x: container 1 is 349 characters as X counts them; X allows 280 (links count 23, most CJK characters and every emoji 2)']],
      ['bluesky', false, ['bluesky: container 1 has 349 characters (graphemes); Bluesky allows 300']],
    ]);
    const atLimit = await dryRun({ accounts: [x.id], content: 'a'.repeat(280) });
    assert.deepEqual(atLimit.body.destinations.map((d: any) => d.ok), [true]);
  });

  test('a video suits every network here; unknown keys are warnings as on a create', async () => {
    // The media item as a hosted client's form sends it, with the id of its own media library.
    const res = await dryRun({ accounts: [youtube.id, tiktok.id, instagram.id], containers: [{ content: 'Clip', media: [{ ...video, id: 7 }] }], colour: 'red' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.destinations.map((d: any) => [d.network, d.ok, d.reasons]), [['youtube', true, []], ['tiktok', true, []], ['instagram', true, []]]);
    assert.equal(res.body.warnings.length, 2);
    assert.match(res.body.warnings[0], /containers\[0\]\.media\[0\]\.id/);
    assert.equal(res.body.warnings[1], 'Unknown key "colour" was ignored');
  });

  test('a video Crier holds that is larger than a network takes is flagged there, unless processMedia re-encodes it', async () => {
    // A file uploaded earlier (its row as confirm leaves it): 600 MB of MP4, past X's 512 MB, within YouTube's 256 GB.
    const token = `dryrunvideo${Date.now()}aaaaaaaaaaaaaaaaaaaa`.slice(0, 32);
    await server.db.query(
      "INSERT INTO media (org_id, filename, content_type, status, token, storage_key, size, expires_at) VALUES ($1, 'big.mp4', 'video/mp4', 'ready', $2, 'uploads/x', $3, now() + interval '1 day')",
      [org.orgId, token, 600 * 1024 * 1024],
    );
    const held = { url: `${server.config.publicBaseUrl}/media/${token}/big.mp4`, filename: 'big.mp4' };
    const res = await dryRun({ accounts: [x.id, youtube.id], containers: [{ content: 'Long clip', media: [held] }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.destinations.map((d: any) => [d.network, d.ok, d.reasons]), [
      ['x', false, [`media big.mp4 is ${600 * 1024 * 1024} bytes; X takes videos up to ${512 * 1024 * 1024} bytes`]],
      ['youtube', true, []],
    ]);
    const processed = await dryRun({ accounts: [x.id], containers: [{ content: 'Long clip', media: [held] }], processMedia: true });
    assert.deepEqual(processed.body.destinations.map((d: any) => d.ok), [true]);
  });

  test('nothing is stored, and the Idempotency-Key stays free for the real create', async () => {
    const before = await countRows(server.db, 'posts', org.orgId);
    const body = { accounts: [x.id], content: 'Keyed' };
    const dry = await dryRun(body, { 'idempotency-key': 'dry-run-key-1' });
    assert.equal(dry.status, 200);
    assert.equal(await countRows(server.db, 'posts', org.orgId), before);
    const created = await server.request('POST', '/v1/posts', { key: org.key, body, headers: { 'idempotency-key': 'dry-run-key-1' } });
    assert.equal(created.status, 200);
    assert.equal(created.headers.get('idempotency-replayed'), null, 'the dry run did not store a response under the key');
    assert.equal(await countRows(server.db, 'posts', org.orgId), before + 1);
  });

  test('dry_run=false is a create', async () => {
    const res = await dryRun({ accounts: [x.id], content: 'Really' }, {}, 'dry_run=false');
    assert.equal(res.status, 200);
    assert.ok(res.body.post.id);
    assert.equal('dryRun' in res.body, false);
  });
});

describe('an invalid request: the create\'s 400', () => {
  async function sameAsCreate(body: unknown): Promise<any> {
    const dry = await dryRun(body);
    const created = await server.request('POST', '/v1/posts', { key: org.key, body });
    assert.equal(dry.status, 400);
    assert.deepEqual(dry.body, created.body);
    return dry.body;
  }

  test('schema and content rules', async () => {
    const body = await sameAsCreate({ accounts: [x.id] });
    assert.equal(body.details[0].field, 'content');
  });

  test('the 30-day window', async () => {
    const body = await sameAsCreate({ accounts: [x.id], content: 'Later', scheduledAt: new Date(Date.now() + 40 * 86_400_000).toISOString() });
    assert.equal(body.details[0].field, 'scheduledAt');
  });

  test('no account resolved', async () => {
    const body = await sameAsCreate({ accounts: ['nobody_here'], content: 'Hi' });
    assert.equal(body.code, 'no_account_resolved');
  });

  test('a target rule of a resolved account (Threads: 500 characters)', async () => {
    const threads = await server.addAccount(org, 'threads', 'dry_threads');
    const body = await sameAsCreate({ accounts: [x.id, threads.id], content: 'a'.repeat(600) });
    assert.match(JSON.stringify(body.details), /500/);
  });

  test('a post a network can never publish, decided from the request alone, names each account and its network\'s reason', async () => {
    const body = await sameAsCreate({ accounts: [youtube.id, x.id, tiktok.id], containers: [{ content: 'A cat', media: [image] }] });
    assert.deepEqual(body.details.map((d: any) => d.field), ['socialAccounts[0]', 'socialAccounts[2]']);
    assert.match(body.details[0].message, /^youtube: .*"cat\.png" is not an mp4/);
    assert.match(body.details[1].message, /^tiktok: cat\.png is not a JPEG or WebP photo/);
  });

  test('X, Threads, LinkedIn, Facebook and Bluesky refuse at create what their publishing sides refuse before any call', async () => {
    const threads = await server.addAccount(org, 'threads', 'dry_th');
    const linkedin = await server.addAccount(org, 'linkedin', 'dry_li');
    const facebook = await server.addAccount(org, 'facebook', 'dry_fb');
    const doc = { url: 'https://cdn.example.com/notes.pdf', filename: 'notes.pdf' };
    const bluesky = await server.addAccount(org, 'bluesky', 'dry.bsky.social');
    const body = await sameAsCreate({ accounts: [x.id, threads.id, linkedin.id, facebook.id, bluesky.id], containers: [{ content: 'Mixed', media: [video, image] }, { content: 'reply', media: [doc] }] });
    const reasons = Object.fromEntries(body.details.map((d: any) => [d.field, d.message]));
    assert.match(reasons['socialAccounts[0]'], /^x: container 1 has 2 media; X allows up to 4 images or 1 video/);
    assert.match(reasons['socialAccounts[1]'], /^threads: notes\.pdf is neither an image nor a video/);
    assert.match(reasons['socialAccounts[2]'], /^linkedin: container 2 has media, but LinkedIn publishes later containers as comments/);
    assert.match(reasons['socialAccounts[3]'], /^facebook: container 2 has media/);
    assert.match(reasons['socialAccounts[4]'], /^bluesky: clip\.mp4 is not an image/);
  });

  test('a text post to a network that needs media', async () => {
    const body = await sameAsCreate({ accounts: [x.id, instagram.id], content: 'Just words' });
    assert.deepEqual(body.details, [{ field: 'socialAccounts[1]', message: 'instagram: Instagram needs an image or a video in the first container' }]);
  });

  test('a bad dry_run value names the parameter', async () => {
    const res = await dryRun({ accounts: [x.id], content: 'Hi' }, {}, 'dry_run=maybe');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ field: 'dry_run', message: 'must be "true" or "false"' }]);
  });
});

test('the OpenAPI document describes the dry run', async () => {
  const res = await server.request('GET', '/openapi.json');
  const create = res.body.paths['/v1/posts'].post;
  assert.ok(create.parameters.some((p: any) => p.name === 'dry_run' && p.in === 'query'));
  const ok = JSON.stringify(create.responses['200']);
  assert.match(ok, /destinations/);
  assert.match(ok, /dryRun/);
});
