// Smoke test of the real-PDS harness: the write path a Bluesky adapter needs, against the reference
// @atproto/pds running offline. Not part of `npm test` (test/run.ts skips test/peers/).
// Run from the repo root:  node --test test/peers/bluesky/smoke.test.ts
// Needs:                   npm ci --prefix test/peers/bluesky
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { INSTALL_HINT, pdsInstalled, startPds, type RunningPds } from './pds.ts';

/** A valid 1x1 RGB PNG (one orange pixel), built by hand: signature, IHDR, IDAT, IEND. */
function onePixelPng(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typeAndData));
    return Buffer.concat([len, typeAndData, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const scanline = Buffer.from([0, 0xff, 0x88, 0x00]); // filter byte "none", then R G B
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(scanline)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function xrpcPost(url: string, nsid: string, body: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}/xrpc/${nsid}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const out = await res.json();
  assert.equal(res.status, 200, `${nsid}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

test('real Bluesky PDS: app-password login, PNG blob, post with alt text and mention facet', async (t) => {
  assert.ok(pdsInstalled(), INSTALL_HINT);

  const t0 = performance.now();
  const pds: RunningPds = await startPds();
  const startMs = performance.now() - t0;
  t.diagnostic(`PDS start (spawn -> ready): ${startMs.toFixed(0)} ms at ${pds.url}`);
  let stopped = false;
  t.after(async () => {
    if (!stopped) await pds.stop();
  });
  assert.match(pds.url, /^http:\/\/localhost:\d+$/);

  const alice = await pds.createAccount('alice.test', 'alice-main-password');
  const bob = await pds.createAccount('bob.test', 'bob-main-password');
  assert.match(alice.did, /^did:plc:/);
  assert.match(bob.did, /^did:plc:/);
  assert.equal(alice.handle, 'alice.test');
  assert.equal(bob.handle, 'bob.test');

  const appPassword = await pds.createAppPassword('alice.test', 'alice-main-password', 'crier-smoke');
  assert.match(appPassword, /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);

  // Log in the way the adapter will: with the app password, plain fetch.
  const session = await xrpcPost(pds.url, 'com.atproto.server.createSession', {
    identifier: 'alice.test',
    password: appPassword,
  });
  assert.equal(session.did, alice.did);
  assert.equal(session.handle, 'alice.test');
  assert.equal(typeof session.accessJwt, 'string');

  // Raw-body blob upload.
  const png = onePixelPng();
  const up = await fetch(`${pds.url}/xrpc/com.atproto.repo.uploadBlob`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${session.accessJwt}` },
    body: new Uint8Array(png), // a copy backed by a plain ArrayBuffer (what BodyInit types accept)
  });
  const { blob } = await up.json();
  assert.equal(up.status, 200, JSON.stringify(blob));
  assert.equal(blob.mimeType, 'image/png');
  assert.equal(blob.size, png.length);
  const blobCid: string = blob.ref.$link;
  assert.match(blobCid, /^bafkrei/);

  // Non-ASCII before the mention, so character and UTF-8 byte offsets differ.
  const mention = '@bob.test';
  const text = `Héllo ✨ ${mention} — smoke test 🚀`;
  const charStart = text.indexOf(mention);
  const byteStart = Buffer.byteLength(text.slice(0, charStart), 'utf8');
  const byteEnd = byteStart + Buffer.byteLength(mention, 'utf8');
  assert.notEqual(byteStart, charStart);
  assert.equal(Buffer.from(text, 'utf8').subarray(byteStart, byteEnd).toString('utf8'), mention);
  const facet = {
    index: { byteStart, byteEnd },
    features: [{ $type: 'app.bsky.richtext.facet#mention', did: bob.did }],
  };
  const alt = 'One orange pixel — alt text ✓';

  const created = await xrpcPost(
    pds.url,
    'com.atproto.repo.createRecord',
    {
      repo: session.did,
      collection: 'app.bsky.feed.post',
      record: {
        $type: 'app.bsky.feed.post',
        text,
        createdAt: new Date().toISOString(),
        langs: ['en'],
        facets: [facet],
        embed: {
          $type: 'app.bsky.embed.images',
          images: [{ image: blob, alt, aspectRatio: { width: 1, height: 1 } }],
        },
      },
    },
    session.accessJwt,
  );
  assert.equal(created.validationStatus, 'valid');
  assert.match(created.uri, new RegExp(`^at://${alice.did}/app\\.bsky\\.feed\\.post/`));

  const got = await pds.getRecord(created.uri);
  assert.equal(got.uri, created.uri);
  assert.equal(got.cid, created.cid);
  assert.equal(got.value.text, text);
  assert.deepEqual(got.value.facets, [facet]);
  assert.equal(got.value.embed.$type, 'app.bsky.embed.images');
  assert.equal(got.value.embed.images.length, 1);
  assert.equal(got.value.embed.images[0].alt, alt);
  assert.equal(got.value.embed.images[0].image.ref.$link, blobCid);
  assert.equal(got.value.embed.images[0].image.mimeType, 'image/png');

  const posts = await pds.listRecords(alice.did, 'app.bsky.feed.post');
  assert.deepEqual(
    posts.map((r) => r.uri),
    [created.uri],
  );
  const stored = await pds.getBlob(alice.did, blobCid);
  assert.equal(stored.contentType, 'image/png');
  assert.ok(stored.bytes.equals(png), 'getBlob returns the uploaded bytes');

  const t1 = performance.now();
  await pds.stop();
  stopped = true;
  t.diagnostic(`PDS stop: ${(performance.now() - t1).toFixed(0)} ms`);
  assert.throws(() => process.kill(pds.pid, 0), { code: 'ESRCH' }, 'the harness process is gone');
});
