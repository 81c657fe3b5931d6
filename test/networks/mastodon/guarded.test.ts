// A real user's instance is reached through the SSRF guard, not directly: here the emulated instance
// sits behind a local HTTPS front (the test certificate the worker trusts through CRIER_EXTRA_CA_FILE,
// loopback allowed by CRIER_ALLOW_LOOPBACK_FETCH), at an origin other than the configured
// CRIER_MASTODON_BASE_URL. A thread with an image publishes through the guard: the multipart upload,
// the processing poll and the statuses with their Idempotency-Key all pass through the front.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { selfSignedCertificate } from '../../helpers/https-server.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { startMastodonStack, type Connected, type MastodonStack } from './setup.ts';

describe('publishing to an instance through the SSRF guard', () => {
  let s: MastodonStack;
  let front: Server;
  let frontUrl: string;
  const seen: string[] = [];

  before(async () => {
    s = await startMastodonStack();
    const { key, cert } = await selfSignedCertificate();
    // Forwards every request to the emulator as it came, and its answer back as it went.
    front = createServer({ key, cert }, async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      seen.push(`${req.method} ${req.url} ${req.headers['idempotency-key'] ? 'keyed' : ''}`.trim());
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)).map(([n, v]) => [n, String(v)]));
      const answer = await fetch(`${s.masto.url}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await s.close();
  });

  it('a thread with an image: every call through the front, one upload, two keyed statuses', async () => {
    const remote = s.masto.addAccount({ username: 'guarded' });
    s.masto.processInBackground(1);
    const host = new URL(frontUrl).host;
    const stored = await s.h.server.addAccount(s.org, 'mastodon', `guarded@${host}`, { networkUniqueId: `${host}:${remote.id}`, serviceUrl: frontUrl, credential: remote.token });
    const account = { ...stored, remote } as unknown as Connected;
    const jpeg = await makeJpeg();
    const url = await s.upload('g.jpg', jpeg, 'image/jpeg');
    try {
      const post = await s.publish(account, { containers: [{ content: 'through the guard', media: [{ url, filename: 'g.jpg', altText: 'guarded' }] }, { content: 'and a reply' }] });
      assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    } finally {
      s.masto.processInBackground(0);
    }
    const [root, reply] = s.masto.statusesOf(remote.id);
    assert.deepEqual([root!.text, reply!.text, reply!.inReplyToId], ['through the guard', 'and a reply', root!.id]);
    assert.equal(s.masto.media(root!.mediaIds[0]!)!.description, 'guarded');
    assert.deepEqual(seen.filter((line) => !line.startsWith('GET /api/v2/instance')), [
      'POST /api/v2/media', `GET /api/v1/media/${root!.mediaIds[0]}`, `GET /api/v1/media/${root!.mediaIds[0]}`, 'POST /api/v1/statuses keyed', 'POST /api/v1/statuses keyed',
    ]);
  });
});
