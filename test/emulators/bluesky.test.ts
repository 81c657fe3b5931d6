// The Bluesky PDS emulator over real HTTP: XRPC statuses and {error, message} bodies as the
// reference PDS sends them, and what the inspection handle recorded. When @atproto/api is
// installed, the official client is also run against it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBlueskyEmulator, type BlueskyEmulator } from '../../emulators/bluesky/server.ts';
import { BLOB_FIELDS } from '../../emulators/bluesky/validate/lexicon.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000003080600000000000000', 'hex');

let pds: BlueskyEmulator;
let counter = 0;

interface Session {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

async function xrpc(nsid: string, opts: { token?: string; body?: unknown; params?: Record<string, string>; raw?: Buffer; type?: string; post?: boolean } = {}) {
  const query = opts.params ? `?${new URLSearchParams(opts.params)}` : '';
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  let body: BodyInit | undefined;
  if (opts.raw) {
    body = new Uint8Array(opts.raw);
    if (opts.type) headers['content-type'] = opts.type;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const method = body !== undefined || opts.post ? 'POST' : 'GET';
  const res = await fetch(`${pds.url}/xrpc/${nsid}${query}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function newAccount(): Promise<Session> {
  counter += 1;
  const handle = `user${counter}.test`;
  pds.addAccount({ handle, password: 'main-password', appPasswords: ['aaaa-bbbb-cccc-dddd'] });
  const res = await xrpc('com.atproto.server.createSession', { body: { identifier: handle, password: 'aaaa-bbbb-cccc-dddd' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const now = () => new Date().toISOString();
const post = (s: Session, record: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  xrpc('com.atproto.repo.createRecord', {
    token: s.accessJwt,
    body: { repo: s.did, collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', createdAt: now(), ...record }, ...extra },
  });

async function uploadBlob(s: Session, bytes: Buffer, type: string) {
  const res = await xrpc('com.atproto.repo.uploadBlob', { token: s.accessJwt, raw: bytes, type });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.blob;
}

function decodeJwt(jwt: string) {
  const [header, payload] = jwt.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
  return { header, payload };
}

/** The DID document a session answer carries: the handle and the PDS hosting the account. */
const didDoc = (did: string, handle: string, endpoint: string) => ({
  '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
  id: did,
  alsoKnownAs: [`at://${handle}`],
  service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: endpoint }],
});

before(async () => {
  pds = await startBlueskyEmulator();
});
after(() => pds.close());

describe('server and sessions', () => {
  it('describes the server', async () => {
    const res = await xrpc('com.atproto.server.describeServer');
    assert.deepEqual([res.status, res.body], [200, { did: 'did:web:localhost', availableUserDomains: ['.test'], inviteCodeRequired: false, links: {}, contact: {} }]);
  });

  it('creates sessions with the account password or an app password', async () => {
    const account = pds.addAccount({ handle: 'Session.test', password: 'hunter2', email: 'me@example.com', appPasswords: [{ name: 'crier', password: 'wxyz-wxyz-wxyz-wxyz' }] });
    assert.match(account.did, /^did:plc:[a-z2-7]{24}$/);
    const main = await xrpc('com.atproto.server.createSession', { body: { identifier: 'session.test', password: 'hunter2' } });
    assert.equal(main.status, 200);
    assert.deepEqual(Object.keys(main.body).sort(), ['accessJwt', 'active', 'did', 'didDoc', 'email', 'emailConfirmed', 'handle', 'refreshJwt']);
    assert.deepEqual(main.body.didDoc, didDoc(account.did, 'session.test', pds.url), 'the DID document names this PDS');
    assert.equal(main.body.handle, 'session.test');
    assert.equal(main.body.did, account.did);
    assert.equal(main.body.active, true);
    const access = decodeJwt(main.body.accessJwt);
    assert.deepEqual(access.header, { typ: 'at+jwt', alg: 'HS256' });
    assert.equal(access.payload.scope, 'com.atproto.access');
    assert.equal(access.payload.sub, account.did);
    assert.equal(access.payload.aud, 'did:web:localhost');
    assert.equal(access.payload.exp - access.payload.iat, 7200);
    const refresh = decodeJwt(main.body.refreshJwt);
    assert.equal(refresh.header.typ, 'refresh+jwt');
    assert.equal(refresh.payload.scope, 'com.atproto.refresh');
    assert.equal(refresh.payload.exp - refresh.payload.iat, 90 * 24 * 3600);

    const app = await xrpc('com.atproto.server.createSession', { body: { identifier: 'me@example.com', password: 'wxyz-wxyz-wxyz-wxyz' } });
    assert.equal(decodeJwt(app.body.accessJwt).payload.scope, 'com.atproto.appPass');
    const byDid = await xrpc('com.atproto.server.createSession', { body: { identifier: account.did, password: 'hunter2' } });
    assert.equal(byDid.status, 200);
    const bad = await xrpc('com.atproto.server.createSession', { body: { identifier: 'session.test', password: 'wrong' } });
    assert.deepEqual([bad.status, bad.body], [401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' }]);
    const missing = await xrpc('com.atproto.server.createSession', { body: { identifier: 'session.test' } });
    assert.deepEqual([missing.status, missing.body], [400, { error: 'InvalidRequest', message: 'Missing required key "password" at $' }]);
  });

  it("names the account's PDS in its DID document: set at creation or moved later, every session answer follows", async () => {
    const moved = pds.addAccount({ handle: 'elsewhere.test', password: 'pw', pdsEndpoint: 'https://pds.example.com' });
    const first = await xrpc('com.atproto.server.createSession', { body: { identifier: 'elsewhere.test', password: 'pw' } });
    assert.deepEqual(first.body.didDoc, didDoc(moved.did, 'elsewhere.test', 'https://pds.example.com'));
    pds.setPdsEndpoint(moved.did, 'https://other.example.net');
    const refreshed = await xrpc('com.atproto.server.refreshSession', { token: first.body.refreshJwt, post: true });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.deepEqual(refreshed.body.didDoc.service, [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://other.example.net' }]);
    const session = await xrpc('com.atproto.server.getSession', { token: refreshed.body.accessJwt });
    assert.equal(session.body.didDoc.service[0].serviceEndpoint, 'https://other.example.net');
  });

  it('answers getSession, and refuses missing, bogus, expired and wrong-type tokens', async () => {
    const s = await newAccount();
    const ok = await xrpc('com.atproto.server.getSession', { token: s.accessJwt });
    assert.deepEqual([ok.status, ok.body], [200, { handle: s.handle, did: s.did, didDoc: didDoc(s.did, s.handle, pds.url), emailConfirmed: false, active: true }]);
    assert.deepEqual(await xrpc('com.atproto.server.getSession').then((r) => [r.status, r.body]), [401, { error: 'AuthMissing', message: 'Authentication Required' }]);
    assert.deepEqual(await xrpc('com.atproto.server.getSession', { token: 'bogus' }).then((r) => [r.status, r.body]), [400, { error: 'InvalidToken', message: 'Token could not be verified' }]);
    assert.deepEqual(await xrpc('com.atproto.server.getSession', { token: s.refreshJwt }).then((r) => [r.status, r.body]), [400, { error: 'InvalidToken', message: 'Invalid token type' }]);
    pds.expireToken(s.accessJwt);
    assert.deepEqual(await xrpc('com.atproto.server.getSession', { token: s.accessJwt }).then((r) => [r.status, r.body]), [400, { error: 'ExpiredToken', message: 'Token has expired' }]);
    const fresh = await newAccount();
    pds.clock.advance(2 * 3600 * 1000 + 1000);
    assert.deepEqual(await xrpc('com.atproto.server.getSession', { token: fresh.accessJwt }).then((r) => [r.status, r.body]), [400, { error: 'ExpiredToken', message: 'Token has expired' }]);
  });

  it('rotates refresh tokens, honours a grace period, then reports the old one revoked', async () => {
    const s = await newAccount();
    const first = await xrpc('com.atproto.server.refreshSession', { post: true, token: s.refreshJwt });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['accessJwt', 'active', 'did', 'didDoc', 'emailConfirmed', 'handle', 'refreshJwt']);
    assert.notEqual(first.body.refreshJwt, s.refreshJwt);
    assert.equal((await xrpc('com.atproto.server.getSession', { token: first.body.accessJwt })).status, 200);
    assert.equal((await xrpc('com.atproto.server.refreshSession', { post: true, token: s.refreshJwt })).status, 200);
    assert.deepEqual((await xrpc('com.atproto.server.refreshSession', { post: true, token: first.body.accessJwt })).body, { error: 'InvalidToken', message: 'Invalid token type' });
    pds.clock.advance(2 * 3600 * 1000 + 1000);
    const revoked = await xrpc('com.atproto.server.refreshSession', { post: true, token: s.refreshJwt });
    assert.deepEqual([revoked.status, revoked.body], [400, { error: 'ExpiredToken', message: 'Token has been revoked' }]);
    pds.revokeSessions(s.did);
    assert.equal((await xrpc('com.atproto.server.refreshSession', { post: true, token: first.body.refreshJwt })).body.error, 'ExpiredToken');
  });

  it('limits logins to 30 per 5 minutes per identifier with RateLimit-* headers', async () => {
    pds.addAccount({ handle: 'busy.test', password: 'pw' });
    let last;
    for (let i = 0; i < 31; i++) last = await xrpc('com.atproto.server.createSession', { body: { identifier: 'busy.test', password: 'pw' } });
    assert.equal(last?.status, 429);
    assert.deepEqual(last?.body, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' });
    assert.equal(last?.headers.get('ratelimit-limit'), '30');
    assert.equal(last?.headers.get('ratelimit-remaining'), '0');
    assert.equal(last?.headers.get('ratelimit-policy'), '30;w=300');
    assert.ok(Number(last?.headers.get('ratelimit-reset')) > Date.now() / 1000);
    pds.clock.advance(5 * 60 * 1000);
    assert.equal((await xrpc('com.atproto.server.createSession', { body: { identifier: 'busy.test', password: 'pw' } })).status, 200);
  });

  // Rate-limits guide: createSession is limited "per account", so the handle, the email address and
  // the DID of one account draw on one allowance.
  it('counts logins by handle, email and DID against one allowance per account', async () => {
    const { did } = pds.addAccount({ handle: 'many-names.test', email: 'many@example.com', password: 'pw' });
    const login = (identifier: string) => xrpc('com.atproto.server.createSession', { body: { identifier, password: 'pw' } });
    const statuses: number[] = [];
    for (const identifier of ['many-names.test', 'MANY@example.com', did]) {
      for (let i = 0; i < 10; i++) statuses.push((await login(identifier)).status);
    }
    assert.deepEqual(statuses, Array(30).fill(200));
    const refused = await login('many@example.com');
    assert.deepEqual([refused.status, refused.body], [429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }]);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal((await login(did)).status, 429);
    pds.addAccount({ handle: 'neighbour.test', password: 'pw' });
    assert.equal((await login('neighbour.test')).status, 200, 'another account keeps its own allowance');
    pds.clock.advance(5 * 60 * 1000);
  });
});

describe('blobs and posts', () => {
  it('uploads a blob as a raw-codec CID with the sniffed type, capped by blobUploadLimit', async () => {
    const s = await newAccount();
    const blob = await uploadBlob(s, PNG, 'application/octet-stream');
    assert.deepEqual(Object.keys(blob).sort(), ['$type', 'mimeType', 'ref', 'size']);
    assert.equal(blob.$type, 'blob');
    assert.match(blob.ref.$link, /^bafkrei[a-z2-7]{52}$/);
    assert.equal(blob.mimeType, 'image/png');
    assert.equal(blob.size, PNG.length);
    assert.deepEqual(pds.blobs(s.did), [{ did: s.did, cid: blob.ref.$link, mimeType: 'image/png', size: PNG.length }]);
    const untyped = await xrpc('com.atproto.repo.uploadBlob', { token: s.accessJwt, raw: PNG });
    assert.deepEqual([untyped.status, untyped.body], [400, { error: 'InvalidRequest', message: 'Request encoding (Content-Type) required but not provided' }]);
    const small = await startBlueskyEmulator({ blobUploadLimit: 10 });
    try {
      small.addAccount({ handle: 'small.test', password: 'pw' });
      const session = await fetch(`${small.url}/xrpc/com.atproto.server.createSession`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'small.test', password: 'pw' }),
      }).then((r) => r.json());
      const res = await fetch(`${small.url}/xrpc/com.atproto.repo.uploadBlob`, {
        method: 'POST', headers: { authorization: `Bearer ${session.accessJwt}`, 'content-type': 'image/png' }, body: new Uint8Array(PNG),
      });
      assert.deepEqual([res.status, await res.json()], [413, { error: 'PayloadTooLarge', message: 'request entity too large' }]);
    } finally {
      await small.close();
    }
  });

  it('creates a post with images and reads it back with getRecord', async () => {
    const s = await newAccount();
    const blob = await uploadBlob(s, PNG, 'image/png');
    const embed = { $type: 'app.bsky.embed.images', images: [{ image: blob, alt: 'a pixel', aspectRatio: { width: 2, height: 3 } }] };
    const res = await post(s, { text: 'with image', embed, langs: ['en'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['cid', 'commit', 'uri', 'validationStatus']);
    assert.match(res.body.uri, new RegExp(`^at://${s.did}/app\\.bsky\\.feed\\.post/[234567abcdefghij][234567a-z]{12}$`));
    assert.match(res.body.cid, /^bafyrei[a-z2-7]{52}$/);
    assert.match(res.body.commit.rev, /^[234567a-z]{13}$/);
    assert.equal(res.body.validationStatus, 'valid');
    const rkey = res.body.uri.split('/').pop();
    const read = await xrpc('com.atproto.repo.getRecord', { params: { repo: s.handle, collection: 'app.bsky.feed.post', rkey } });
    assert.deepEqual(read.body, { uri: res.body.uri, cid: res.body.cid, value: { $type: 'app.bsky.feed.post', createdAt: read.body.value.createdAt, text: 'with image', embed, langs: ['en'] } });
    const recorded = pds.records(s.did);
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0].rkey, rkey);
    assert.equal(recorded[0].value.text, 'with image');
  });

  it('gives identical records identical CIDs (DAG-CBOR hashing)', async () => {
    const s = await newAccount();
    const record = { text: 'same', createdAt: '2026-01-01T00:00:00.000Z' };
    const a = await post(s, record);
    const b = await post(s, { createdAt: record.createdAt, text: 'same' });
    assert.equal(a.body.cid, b.body.cid);
    assert.notEqual(a.body.uri, b.body.uri);
  });

  it('validates text length in graphemes and bytes', async () => {
    const s = await newAccount();
    const err = (message: string) => ({ error: 'InvalidRequest', message: `Invalid app.bsky.feed.post record: ${message}` });
    assert.equal((await post(s, { text: 'é'.repeat(300) })).status, 200);
    assert.equal((await post(s, { text: '👨‍👩‍👧'.repeat(100) })).status, 200);
    assert.deepEqual((await post(s, { text: 'x'.repeat(301) })).body, err('grapheme too big (maximum 300, got 301) at $.record.text'));
    assert.deepEqual((await post(s, { text: '👨‍👩‍👧'.repeat(200) })).body, err('string too big (maximum 3000, got 3600) at $.record.text'));
    assert.deepEqual((await post(s, { text: 5 })).body, err('Expected string value type at $.record.text (got integer)'));
    assert.deepEqual((await post(s, { text: 'x', createdAt: 'yesterday' })).body, err('Invalid datetime at $.record.createdAt (got "yesterday")'));
    assert.deepEqual((await post(s, { text: 'x', $type: 'app.bsky.feed.like' })).body, { error: 'InvalidRequest', message: 'Invalid $type: expected app.bsky.feed.post, got app.bsky.feed.like' });
  });

  it('validates image embeds: at most 4, alt required, size cap, blobs of this repo', async () => {
    const s = await newAccount();
    const blob = await uploadBlob(s, PNG, 'image/png');
    const images = (n: number, extra: Record<string, unknown> = { alt: '' }) =>
      ({ $type: 'app.bsky.embed.images', images: Array.from({ length: n }, () => ({ image: blob, ...extra })) });
    const message = async (record: Record<string, unknown>) => (await post(s, { text: 'img', ...record })).body;
    assert.equal((await post(s, { text: 'four', embed: images(4) })).status, 200);
    assert.equal((await message({ embed: images(5) })).message, 'Invalid app.bsky.feed.post record: array too big (maximum 4, got 5) at $.record.embed.images');
    assert.equal((await message({ embed: images(1, {}) })).message, 'Invalid app.bsky.feed.post record: Missing required key "alt" at $.record.embed.images[0]');
    // app.bsky.embed.images' maxSize is 2,000,000 bytes since 2026-04-08 (1,000,000 before).
    const big = { ...blob, size: 2_000_001 };
    assert.equal((await message({ embed: { $type: 'app.bsky.embed.images', images: [{ image: big, alt: '' }] } })).message,
      'Invalid app.bsky.feed.post record: blob too big (maximum 2000000, got 2000001) at $.record.embed.images[0].image');
    // A link card's thumbnail keeps the 1,000,000-byte cap.
    const card = (size: number) => ({ $type: 'app.bsky.embed.external', external: { uri: 'https://example.com/', title: 't', description: 'd', thumb: { ...blob, size } } });
    assert.equal((await message({ embed: card(1_000_001) })).message,
      'Invalid app.bsky.feed.post record: blob too big (maximum 1000000, got 1000001) at $.record.embed.external.thumb');

    const other = await newAccount();
    const foreign = await uploadBlob(other, Buffer.concat([PNG, Buffer.from('x')]), 'image/png');
    assert.deepEqual(await message({ embed: { $type: 'app.bsky.embed.images', images: [{ image: foreign, alt: '' }] } }),
      { error: 'BlobNotFound', message: `Could not find blob: ${foreign.ref.$link}` });
    assert.deepEqual(await message({ embed: { $type: 'app.bsky.embed.images', images: [{ image: { ...blob, mimeType: 'image/jpeg' }, alt: '' }] } }),
      { error: 'InvalidMimeType', message: 'Referenced Mimetype does not match stored blob. Expected: image/png, Got: image/jpeg' });
    const text = await uploadBlob(s, Buffer.from('plain words'), 'text/plain');
    assert.deepEqual(await message({ embed: { $type: 'app.bsky.embed.images', images: [{ image: text, alt: '' }] } }),
      { error: 'InvalidMimeType', message: 'Wrong type of file. It is text/plain but it must match image/*.' });
  });

  it('refuses a stored image above the cap even when the record understates its size', async () => {
    const strict = await startBlueskyEmulator({ imageMaxBytes: 20 });
    try {
      strict.addAccount({ handle: 'cap.test', password: 'pw' });
      const call = (nsid: string, init: RequestInit) => fetch(`${strict.url}/xrpc/${nsid}`, init).then(async (r) => [r.status, await r.json()]);
      const [, session] = await call('com.atproto.server.createSession', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'cap.test', password: 'pw' }),
      });
      const auth = { authorization: `Bearer ${session.accessJwt}` };
      const [, uploaded] = await call('com.atproto.repo.uploadBlob', { method: 'POST', headers: { ...auth, 'content-type': 'image/png' }, body: new Uint8Array(PNG) });
      const record = { text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ image: { ...uploaded.blob, size: 10 }, alt: '' }] } };
      const result = await call('com.atproto.repo.createRecord', {
        method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ repo: session.did, collection: 'app.bsky.feed.post', record }),
      });
      assert.deepEqual(result, [400, { error: 'BlobTooLarge', message: 'This file is too large. It is 33B but the maximum size is 20B.' }]);
    } finally {
      await strict.close();
    }
  });

  it('builds a reply thread from strong refs and refuses refs to missing local records', async () => {
    const s = await newAccount();
    const root = (await post(s, { text: 'root' })).body;
    const ref = (r: { uri: string; cid: string }) => ({ uri: r.uri, cid: r.cid });
    const one = (await post(s, { text: 'one', reply: { root: ref(root), parent: ref(root) } })).body;
    const two = await post(s, { text: 'two', reply: { root: ref(root), parent: ref(one) } });
    assert.equal(two.status, 200);
    assert.deepEqual(pds.records(s.did).map((r) => r.value.text), ['root', 'one', 'two']);
    assert.deepEqual(pds.records(s.did)[2].value.reply, { root: ref(root), parent: ref(one) });

    const missing = { uri: `at://${s.did}/app.bsky.feed.post/3zzzzzzzzzzzz`, cid: root.cid };
    assert.equal((await post(s, { text: 'x', reply: { root: ref(root), parent: missing } })).body.message,
      `Invalid app.bsky.feed.post record: record ${missing.uri} (cid ${root.cid}) not found at $.record.reply.parent`);
    assert.equal((await post(s, { text: 'x', reply: { root: ref(root), parent: { uri: one.uri, cid: root.cid } } })).status, 400);
    assert.equal((await post(s, { text: 'x', reply: { parent: ref(root) } })).body.message,
      'Invalid app.bsky.feed.post record: Missing required key "root" at $.record.reply');
    assert.equal((await post(s, { text: 'x', reply: { root: { uri: root.uri, cid: 'nope' }, parent: ref(root) } })).body.message,
      'Invalid app.bsky.feed.post record: Invalid CID string at $.record.reply.root.cid (got "nope")');
    const foreign = { uri: 'at://did:plc:elsewhereelsewhereelsew/app.bsky.feed.post/3kabcabcabcab', cid: root.cid };
    assert.equal((await post(s, { text: 'reply elsewhere', reply: { root: foreign, parent: foreign } })).status, 200);
  });

  it('validates facets: byte ranges, features and their formats', async () => {
    const s = await newAccount();
    const text = 'héllo https://example.com';
    const link = { index: { byteStart: 7, byteEnd: 26 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com' }] };
    assert.equal((await post(s, { text, facets: [link] })).status, 200);
    const fail = async (facet: unknown) => (await post(s, { text, facets: [facet] })).body.message;
    assert.equal(await fail({ ...link, index: { byteStart: 7, byteEnd: 27 } }),
      'Invalid app.bsky.feed.post record: facet byte range [7, 27) is not inside the 26-byte text at $.record.facets[0].index');
    assert.equal(await fail({ features: link.features }), 'Invalid app.bsky.feed.post record: Missing required key "index" at $.record.facets[0]');
    assert.equal(await fail({ ...link, index: { byteStart: -1, byteEnd: 3 } }),
      'Invalid app.bsky.feed.post record: integer too small (minimum 0, got -1) at $.record.facets[0].index.byteStart');
    assert.equal(await fail({ index: link.index, features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'alice' }] }),
      'Invalid app.bsky.feed.post record: Invalid DID at $.record.facets[0].features[0].did (got "alice")');
    assert.equal(await fail({ index: link.index, features: [{ uri: 'https://example.com' }] }),
      'Invalid app.bsky.feed.post record: Expected an object or record which includes a "$type" property value type at $.record.facets[0].features[0] (got object)');
  });

  it('takes a caller-chosen TID rkey once, refuses a reused one like the PDS (500), and a non-TID one', async () => {
    const s = await newAccount();
    const rkey = '3kzzabcdefgh2';
    const first = await post(s, { text: 'keyed' }, { rkey });
    assert.equal(first.body.uri, `at://${s.did}/app.bsky.feed.post/${rkey}`);
    const again = await post(s, { text: 'keyed again' }, { rkey });
    assert.deepEqual([again.status, again.body], [500, { error: 'InternalServerError', message: 'Internal Server Error' }]);
    assert.deepEqual(pds.records(s.did).map((r) => r.value.text), ['keyed']);
    const bad = await post(s, { text: 'bad key' }, { rkey: 'my-post' });
    assert.deepEqual([bad.status, bad.body], [400, { error: 'InvalidRequest', message: 'Invalid TID string at $.rkey (got "my-post")' }]);
  });

  it("refuses writes to another account's repo and to unknown repos", async () => {
    const s = await newAccount();
    const other = await newAccount();
    const res = await xrpc('com.atproto.repo.createRecord', { token: s.accessJwt, body: { repo: other.did, collection: 'app.bsky.feed.post', record: { text: 'x', createdAt: now() } } });
    assert.deepEqual([res.status, res.body], [401, { error: 'AuthenticationRequired', message: 'Authentication Required' }]);
    const unknown = await xrpc('com.atproto.repo.createRecord', { token: s.accessJwt, body: { repo: 'nobody.test', collection: 'app.bsky.feed.post', record: {} } });
    assert.deepEqual(unknown.body, { error: 'InvalidRequest', message: 'Could not find repo: nobody.test' });
  });
});

describe('record management and reads', () => {
  it('updates with putRecord (swapRecord guarded), lists, deletes', async () => {
    const s = await newAccount();
    const created = [];
    for (const text of ['a', 'b', 'c']) created.push((await post(s, { text })).body);
    const rkeys = created.map((c) => c.uri.split('/').pop());
    const put = (record: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      xrpc('com.atproto.repo.putRecord', { token: s.accessJwt, body: { repo: s.did, collection: 'app.bsky.feed.post', rkey: rkeys[0], record: { text: 'a2', createdAt: now(), ...record }, ...extra } });
    const swapped = await put({}, { swapRecord: created[1].cid });
    assert.deepEqual([swapped.status, swapped.body], [400, { error: 'InvalidSwap', message: `Record was at ${created[0].cid}` }]);
    const updated = await put({}, { swapRecord: created[0].cid });
    assert.equal(updated.status, 200);
    assert.notEqual(updated.body.cid, created[0].cid);
    assert.equal(pds.records(s.did)[0].value.text, 'a2');

    const list = (params: Record<string, string> = {}) => xrpc('com.atproto.repo.listRecords', { params: { repo: s.did, collection: 'app.bsky.feed.post', ...params } }).then((r) => r.body);
    assert.deepEqual((await list()).records.map((r: { value: { text: string } }) => r.value.text), ['c', 'b', 'a2']);
    assert.deepEqual((await list({ reverse: 'true', limit: '2' })).records.map((r: { value: { text: string } }) => r.value.text), ['a2', 'b']);
    const page = await list({ limit: '2' });
    assert.equal(page.cursor, rkeys[1]);
    assert.deepEqual((await list({ cursor: page.cursor })).records.map((r: { value: { text: string } }) => r.value.text), ['a2']);
    assert.deepEqual(await xrpc('com.atproto.repo.listRecords', { params: { repo: s.did, collection: 'app.bsky.feed.post', limit: '101' } }).then((r) => r.body),
      { error: 'InvalidRequest', message: 'integer too big (maximum 100, got 101) at $.limit' });

    const del = await xrpc('com.atproto.repo.deleteRecord', { token: s.accessJwt, body: { repo: s.did, collection: 'app.bsky.feed.post', rkey: rkeys[2] } });
    assert.equal(del.status, 200);
    assert.match(del.body.commit.rev, /^[234567a-z]{13}$/);
    const gone = await xrpc('com.atproto.repo.getRecord', { params: { repo: s.did, collection: 'app.bsky.feed.post', rkey: rkeys[2] } });
    assert.deepEqual([gone.status, gone.body], [400, { error: 'RecordNotFound', message: `Could not locate record: at://${s.did}/app.bsky.feed.post/${rkeys[2]}` }]);
    assert.deepEqual(pds.records(s.did).map((r) => r.value.text), ['a2', 'b']);
  });

  it('resolves local handles and refuses unknown ones', async () => {
    const s = await newAccount();
    assert.deepEqual((await xrpc('com.atproto.identity.resolveHandle', { params: { handle: s.handle } })).body, { did: s.did });
    const res = await xrpc('com.atproto.identity.resolveHandle', { params: { handle: 'nobody.test' } });
    assert.deepEqual([res.status, res.body], [400, { error: 'InvalidRequest', message: 'Unable to resolve handle' }]);
  });

  it('answers unknown methods, AppView methods it does not serve and wrong verbs like a standalone PDS', async () => {
    assert.deepEqual(await xrpc('com.example.nothing').then((r) => [r.status, r.body]), [501, { error: 'MethodNotImplemented', message: 'Method Not Implemented' }]);
    assert.deepEqual(await xrpc('app.bsky.feed.getTimeline').then((r) => [r.status, r.body]),
      [400, { error: 'InvalidRequest', message: 'No service configured for app.bsky.feed.getTimeline' }]);
    assert.deepEqual(await xrpc('com.atproto.repo.createRecord').then((r) => r.body), { error: 'InvalidRequest', message: 'Incorrect HTTP method (GET) expected POST' });
  });
});

describe('AppView reads', () => {
  const strong = (r: { uri: string; cid: string }) => ({ uri: r.uri, cid: r.cid });

  it('getPostThread nests replies to the depth asked, with counts and authors; a missing post is NotFound', async () => {
    const a = await newAccount();
    const b = await newAccount();
    pds.addRecord(b.did, 'app.bsky.actor.profile', { displayName: 'Bee' });
    const root = (await post(a, { text: 'root' })).body;
    const c1 = pds.addRecord(b.did, 'app.bsky.feed.post', { text: 'comment', createdAt: now(), reply: { root: strong(root), parent: strong(root) } });
    const c2 = pds.addRecord(a.did, 'app.bsky.feed.post', { text: 'answer', createdAt: now(), reply: { root: strong(root), parent: c1 } });
    pds.addRecord(a.did, 'app.bsky.feed.like', { subject: c1, createdAt: now() });
    const thread = async (params: Record<string, string>) => xrpc('app.bsky.feed.getPostThread', { token: a.accessJwt, params });
    const deep = (await thread({ uri: root.uri })).body.thread;
    assert.equal(deep.$type, 'app.bsky.feed.defs#threadViewPost');
    assert.equal(deep.post.replyCount, 1);
    const comment = deep.replies[0];
    assert.deepEqual({ uri: comment.post.uri, likeCount: comment.post.likeCount, author: comment.post.author }, { uri: c1.uri, likeCount: 1, author: { did: b.did, handle: b.handle, displayName: 'Bee', labels: [] } });
    assert.equal(comment.replies[0].post.uri, c2.uri);
    assert.equal((await thread({ uri: root.uri, depth: '1' })).body.thread.replies[0].replies, undefined);
    const fromAnswer = (await thread({ uri: c2.uri, parentHeight: '1' })).body.thread;
    assert.equal(fromAnswer.parent.post.uri, c1.uri);
    assert.equal(fromAnswer.parent.parent, undefined);
    const missing = await thread({ uri: `at://${a.did}/app.bsky.feed.post/3kaaaaaaaaaaa` });
    assert.deepEqual([missing.status, missing.body], [400, { error: 'NotFound', message: `Post not found: at://${a.did}/app.bsky.feed.post/3kaaaaaaaaaaa` }]);
    assert.equal((await xrpc('app.bsky.feed.getPostThread', { params: { uri: root.uri } })).status, 401);
  });

  it('getAuthorFeed lists posts and reposts newest first with a cursor; posts_no_replies leaves replies out', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const theirs = (await post(b, { text: 'theirs' })).body;
    const first = (await post(a, { text: 'first' })).body;
    await post(a, { text: 'a reply', reply: { root: strong(first), parent: strong(first) } });
    const repost = pds.addRecord(a.did, 'app.bsky.feed.repost', { subject: strong(theirs), createdAt: now() });
    const feed = async (params: Record<string, string>) => (await xrpc('app.bsky.feed.getAuthorFeed', { token: a.accessJwt, params: { actor: a.handle, ...params } })).body;
    const all = await feed({});
    assert.deepEqual(all.feed.map((i: any) => i.post.record.text), ['theirs', 'a reply', 'first']);
    assert.deepEqual(all.feed[0].reason, { $type: 'app.bsky.feed.defs#reasonRepost', by: { did: a.did, handle: a.handle, labels: [] }, uri: repost.uri, cid: repost.cid, indexedAt: all.feed[0].reason.indexedAt });
    assert.equal(all.feed[1].reply.root.uri, first.uri);
    const noReplies = await feed({ filter: 'posts_no_replies', limit: '1' });
    assert.deepEqual(noReplies.feed.map((i: any) => i.post.record.text), ['theirs']);
    const next = await feed({ filter: 'posts_no_replies', limit: '1', cursor: noReplies.cursor });
    assert.deepEqual(next.feed.map((i: any) => i.post.record.text), ['first']);
    assert.equal(next.cursor, undefined, 'the last page has no cursor');
    assert.deepEqual((await feed({ limit: '101' })), { error: 'InvalidRequest', message: 'integer too big (maximum 100, got 101) at $.limit' });
  });

  it('getPosts and getProfile count likes, reposts, quotes, bookmarks, followers and posts', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const p = (await post(a, { text: 'counted' })).body;
    pds.addRecord(b.did, 'app.bsky.feed.like', { subject: strong(p), createdAt: now() });
    pds.addRecord(b.did, 'app.bsky.feed.repost', { subject: strong(p), createdAt: now() });
    pds.addRecord(b.did, 'app.bsky.feed.post', { text: 'quote', createdAt: now(), embed: { $type: 'app.bsky.embed.record', record: strong(p) } });
    pds.addRecord(b.did, 'app.bsky.graph.follow', { subject: a.did, createdAt: now() });
    pds.setBookmarks(p.uri, 2);
    const posts = await fetch(`${pds.url}/xrpc/app.bsky.feed.getPosts?uris=${encodeURIComponent(p.uri)}&uris=${encodeURIComponent(`at://${a.did}/app.bsky.feed.post/3kaaaaaaaaaaa`)}`, { headers: { authorization: `Bearer ${a.accessJwt}` } }).then((r) => r.json());
    assert.equal(posts.posts.length, 1);
    const view = posts.posts[0];
    assert.deepEqual([view.likeCount, view.repostCount, view.quoteCount, view.replyCount, view.bookmarkCount], [1, 1, 1, 0, 2]);
    const profile = (await xrpc('app.bsky.actor.getProfile', { token: a.accessJwt, params: { actor: a.did } })).body;
    assert.deepEqual([profile.followersCount, profile.followsCount, profile.postsCount], [1, 0, 1]);
    assert.deepEqual((await xrpc('app.bsky.actor.getProfile', { token: a.accessJwt, params: { actor: 'nobody.test' } })).body, { error: 'InvalidRequest', message: 'Profile not found' });
  });

  it('records every call: method, parameters, JSON body, caller and status', async () => {
    const a = await newAccount();
    const mark = pds.calls().length;
    await xrpc('app.bsky.actor.getProfile', { token: a.accessJwt, params: { actor: a.did } });
    await post(a, { text: 'logged' });
    const calls = pds.calls().slice(mark);
    assert.deepEqual(calls.map((c) => [c.nsid, c.method, c.params, c.did, c.status]), [
      ['app.bsky.actor.getProfile', 'GET', { actor: a.did }, a.did, 200],
      ['com.atproto.repo.createRecord', 'POST', {}, a.did, 200],
    ]);
    assert.equal((calls[1]!.body as any).record.text, 'logged');
  });
});

describe('fault injection', () => {
  it('answers the next matching requests with 429 + RateLimit-* headers, 5xx, or a custom body', async () => {
    const s = await newAccount();
    pds.failNext({ status: 429, path: '/xrpc/com.atproto.repo.createRecord' });
    const limited = await post(s, { text: 'retry me' });
    assert.deepEqual([limited.status, limited.body], [429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }]);
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    assert.ok(limited.headers.get('ratelimit-reset'));
    assert.ok(limited.headers.get('ratelimit-policy'));
    assert.equal((await post(s, { text: 'retry me' })).status, 200);
    pds.failNext({ status: 502, times: 2 });
    assert.deepEqual((await xrpc('com.atproto.server.getSession', { token: s.accessJwt })).body, { error: 'UpstreamFailure', message: 'Upstream Failure' });
    assert.equal((await xrpc('com.atproto.server.getSession', { token: s.accessJwt })).status, 502);
    assert.equal((await xrpc('com.atproto.server.getSession', { token: s.accessJwt })).status, 200);
    pds.failNext({ status: 400, body: { error: 'ExpiredToken', message: 'Token has expired' } });
    assert.deepEqual((await xrpc('com.atproto.server.getSession', { token: s.accessJwt })).body, { error: 'ExpiredToken', message: 'Token has expired' });
  });
});

// The official client, when installed (it is not a dependency): login, uploadBlob and post must work.
const atprotoApi = await import(String('@atproto/api')).catch(() => null);
describe('@atproto/api compatibility', { skip: atprotoApi ? false : '@atproto/api is not installed' }, () => {
  it('the blob constraints the emulator reads from its vendored lexicons (description/) are the installed client\'s', () => {
    const bundled = (nsid: string, def: string, property: string) => {
      const defs = atprotoApi.schemas.find((doc: { id: string }) => doc.id === nsid).defs;
      const field = (defs[def].properties ?? defs[def].record.properties)[property];
      return { accept: field.accept, maxSize: field.maxSize };
    };
    assert.deepEqual(BLOB_FIELDS, {
      postImage: bundled('app.bsky.embed.images', 'image', 'image'),
      postVideo: bundled('app.bsky.embed.video', 'main', 'video'),
      linkThumb: bundled('app.bsky.embed.external', 'external', 'thumb'),
      avatar: bundled('app.bsky.actor.profile', 'main', 'avatar'),
      banner: bundled('app.bsky.actor.profile', 'main', 'banner'),
    });
    assert.deepEqual([BLOB_FIELDS.postImage.maxSize, BLOB_FIELDS.postVideo.maxSize, BLOB_FIELDS.linkThumb.maxSize], [2_000_000, 300_000_000, 1_000_000]);
  });

  it('uploads a 1.5 MB image blob and posts with it (app.bsky.embed.images allows 2 MB)', async () => {
    pds.addAccount({ handle: 'agent-big.test', password: 'pw', appPasswords: ['app-pass-word-here'] });
    const agent = new atprotoApi.AtpAgent({ service: pds.url });
    await agent.login({ identifier: 'agent-big.test', password: 'app-pass-word-here' });
    const bytes = Buffer.concat([PNG, Buffer.alloc(1_500_000 - PNG.length, 1)]);
    const uploaded = await agent.uploadBlob(new Uint8Array(bytes), { encoding: 'image/png' });
    assert.equal(uploaded.data.blob.size, 1_500_000);
    const res = await agent.post({
      text: 'a 1.5 MB image',
      embed: { $type: 'app.bsky.embed.images', images: [{ image: uploaded.data.blob, alt: 'big' }] },
    });
    const record = pds.records().find((r) => r.uri === res.uri);
    assert.equal((record?.value as any).embed.images[0].image.size, 1_500_000);
  });

  it('logs in, uploads a blob and posts with AtpAgent', async () => {
    pds.addAccount({ handle: 'agent.test', password: 'pw', appPasswords: ['app-pass-word-here'] });
    const agent = new atprotoApi.AtpAgent({ service: pds.url });
    await agent.login({ identifier: 'agent.test', password: 'app-pass-word-here' });
    const uploaded = await agent.uploadBlob(new Uint8Array(PNG), { encoding: 'image/png' });
    const res = await agent.post({
      text: 'from the official client',
      embed: { $type: 'app.bsky.embed.images', images: [{ image: uploaded.data.blob, alt: 'pixel' }] },
    });
    assert.match(res.uri, /^at:\/\/did:plc:/);
    assert.equal(pds.records().at(-1)?.value.text, 'from the official client');
  });
});
