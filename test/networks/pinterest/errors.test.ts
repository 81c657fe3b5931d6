// How Pinterest's refusals end a destination, over real HTTP against the emulator: a board that is not
// the account's, a refused token (401 code 2), a missing permission (403 code 29), rate limits (429
// code 8 and its reset), invalid parameters, media Pinterest or its upload URL refuse, a video whose
// processing fails; and reconcile after a crash, the adapter against the emulator.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPinterestAdapter } from '../../../src/networks/pinterest/adapter.ts';
import type { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { notifyDue } from '../../../src/publishing/queue.ts';
import { PNG_1X1 } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { createPost, failure, media, pinOf, publish, startPinterestSetup, type PinterestSetup } from './setup.ts';

const GIF = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');

describe('Pinterest refusals', () => {
  let s: PinterestSetup;
  let cat: { url: string; filename: string };

  before(async () => {
    s = await startPinterestSetup();
    s.h.stack.media.route('/anim.gif', (_req, res) => { res.writeHead(200, { 'content-type': 'image/gif' }); res.end(GIF); });
    cat = { url: `${s.h.stack.media.url}/cat.png`, filename: 'cat.png' };
  });
  after(() => s.close());

  const imagePin = (board: string, content = 'a cat') => ({ containers: [{ content, media: [cat] }], pinterest: { board_id: board } });
  const retryOf = async (postId: string) => until(async () => {
    const { rows } = await s.h.server.db.query(
      `SELECT t.id, t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
    );
    return rows[0];
  });

  it('a board that does not exist, or is another account\'s, fails naming the board', async () => {
    const other = s.pin.addUser({ username: 'someone_else' });
    const theirs = s.pin.addBoard({ ownerId: other.id, name: 'Not yours' });
    for (const board of ['123456789', theirs.id]) {
      const error = failure(await publish(s, imagePin(board)));
      assert.equal(error, `pinterest: board ${board} does not exist or is not this account's (Board not found. (code 404)); GET /v1/social-accounts/:id/boards lists the account's boards`);
    }
    assert.equal(s.pin.pins().filter((p) => p.boardId === theirs.id).length, 0);
  });

  it('a token Pinterest refuses (401 code 2) fails the destination and disconnects the account', async () => {
    const bob = s.pin.addUser({ username: 'bob_pins' });
    const account = await s.h.server.addAccount(s.org, 'pinterest', 'bob_pins', { networkUniqueId: bob.id, accessToken: s.pin.issueToken(bob.id) });
    const board = s.pin.addBoard({ ownerId: bob.id });
    s.pin.revokeUser(bob.id);
    const error = failure(await publish(s, imagePin(board.id), [account.id]));
    assert.match(error, /^pinterest: the access token was refused \(Authentication failed\. \(code 2\)\); reconnect the account/);
    const listed = await s.h.server.request('GET', `/v1/social-accounts/${account.id}`, { key: s.org.key });
    assert.equal(listed.body.data.isActive, 0);
  });

  it('a token without pins:write (403 code 29) fails as not permitted, the account kept', async () => {
    const cy = s.pin.addUser({ username: 'cy_pins' });
    const account = await s.h.server.addAccount(s.org, 'pinterest', 'cy_pins', { networkUniqueId: cy.id, accessToken: s.pin.issueToken(cy.id, ['boards:read', 'pins:read', 'user_accounts:read']) });
    const board = s.pin.addBoard({ ownerId: cy.id });
    const error = failure(await publish(s, imagePin(board.id), [account.id]));
    assert.equal(error, `pinterest: the account may not pin to board ${board.id} (You are not permitted to access that resource. (code 29))`);
    const listed = await s.h.server.request('GET', `/v1/social-accounts/${account.id}`, { key: s.org.key });
    assert.equal(listed.body.data.isActive, 1);
  });

  it('over the rate limit (429 code 8): retried when X-RateLimit-Reset says, then published once', async () => {
    s.pin.limitWrites({ limit: 0, windowMs: 120_000 });
    let target;
    try {
      const postId = await createPost(s, imagePin(s.board.id, 'rate limited'));
      target = { postId, ...(await retryOf(postId)) };
    } finally {
      s.pin.limitWrites(undefined);
    }
    assert.equal(target.status, 'pending');
    assert.match(target.error, /^pinterest: rate limited \(This request exceeded a rate limit\..* \(code 8\)\)$/);
    // X-RateLimit-Reset is in whole epoch seconds: up to a second past the 120 s window.
    const inMs = new Date(target.due_at).getTime() - Date.now();
    assert.ok(inMs > 100_000 && inMs <= 121_000, `due again in ${inMs} ms: the reset the 429 gave`);
    const { postId } = target;
    await s.h.server.db.query('UPDATE targets SET due_at = now() WHERE id = $1', [target.id]);
    await notifyDue(s.h.server.db);
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 30_000);
    pinOf(s, post);
    assert.equal(s.pin.pins().filter((p) => p.description === 'rate limited').length, 1);
  });

  it('a server error on the pin is retried; the next attempt finds no pin on the board and creates one', async () => {
    s.pin.failNext({ status: 503, method: 'POST', path: '/v5/pins' });
    const post = await publish(s, imagePin(s.board.id, 'after a 503'));
    pinOf(s, post);
    assert.equal(s.pin.pins().filter((p) => p.description === 'after a 503').length, 1);
    assert.ok(s.pin.calls().some((c) => c.method === 'GET' && c.path === `/v5/boards/${s.board.id}/pins`), 'the board was read before posting again');
  });

  it('invalid parameters (400 code 1) fail for good with Pinterest\'s words', async () => {
    s.pin.failNext({ status: 400, method: 'POST', path: '/v5/pins', body: { code: 1, message: 'Invalid parameters.' } });
    assert.equal(failure(await publish(s, imagePin(s.board.id, 'invalid'))), 'pinterest: Invalid parameters. (code 1)');
  });

  it('media Pinterest cannot take: a GIF is refused before any call; an image Pinterest cannot fetch fails with its reason', async () => {
    const calls = s.pin.calls().length;
    const gif = failure(await publish(s, { containers: [{ content: 'gif', media: [{ url: `${s.h.stack.media.url}/anim.gif`, filename: 'anim.gif' }] }], pinterest: { board_id: s.board.id } }));
    assert.equal(gif, 'pinterest: anim.gif is image/gif; Pinterest takes JPEG or PNG images');
    assert.equal(s.pin.calls().length, calls, 'nothing was sent to Pinterest');
    const own = await media(s, 'gone.png', PNG_1X1, 'image/png');
    s.h.front.setUpstream('http://127.0.0.1:9'); // Crier's public address stops answering Pinterest
    try {
      const error = failure(await publish(s, { containers: [{ content: 'unreachable', media: [own] }], pinterest: { board_id: s.board.id } }));
      assert.equal(error, `pinterest: Sorry, we could not fetch the image at ${own.url}. (code 1)`);
    } finally {
      s.h.front.setUpstream(s.h.server.url);
    }
  });

  it('a video whose processing fails is refused for good, and no pin is created', async () => {
    s.pin.failNextVideo();
    const clip = await media(s, 'broken.mp4', await paddedVideo(1024 * 1024), 'video/mp4');
    const error = failure(await publish(s, { containers: [{ content: 'broken', media: [clip] }], pinterest: { board_id: s.board.id } }));
    const failed = s.pin.media().find((m) => m.status === 'failed')!;
    assert.equal(error, `pinterest: Pinterest could not process broken.mp4 (media ${failed.id} failed)`);
    assert.equal(s.pin.pins().filter((p) => p.description === 'broken').length, 0);
  });

  it('a server error while polling the video is retried from the checkpoint: the same media, one pin', async () => {
    const before = s.pin.media().length;
    s.pin.failNext({ status: 503, method: 'GET', path: '/v5/media/', times: 2 });
    const pin = pinOf(s, await publish(s, { containers: [{ content: 'polled through a 503', media: [await media(s, 'p.mp4', await paddedVideo(1024 * 1024), 'video/mp4')] }], pinterest: { board_id: s.board.id } }));
    const registered = s.pin.media().slice(before);
    assert.deepEqual(registered.map((m) => [m.id, m.uploads]), [[(pin.mediaSource as any).media_id, 1]]);
    assert.equal(s.pin.calls().filter((c) => c.path.startsWith('/v5/media/') && c.status === 503).length, 2);
  });

  it('an upload form refused (an expired policy) registers the video again; refused every time, it fails with S3\'s words', async () => {
    const before = s.pin.media().length;
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>';
    s.pin.failNext({ status: 403, method: 'POST', path: '/media-upload/', body: xml, headers: { 'content-type': 'application/xml' } });
    const once = pinOf(s, await publish(s, { containers: [{ content: 'second try', media: [await media(s, 'a.mp4', await paddedVideo(1024 * 1024), 'video/mp4')] }], pinterest: { board_id: s.board.id } }));
    const registered = s.pin.media().slice(before);
    assert.equal(registered.length, 2, 'registered again after the refusal');
    assert.equal((once.mediaSource as any).media_id, registered[1]!.id);

    s.pin.expireUploads(true);
    try {
      const error = failure(await publish(s, { containers: [{ content: 'never', media: [await media(s, 'b.mp4', await paddedVideo(1024 * 1024), 'video/mp4')] }], pinterest: { board_id: s.board.id } }));
      assert.equal(error, 'pinterest: the video upload was refused: Invalid according to Policy: Policy expired. (AccessDenied)');
      assert.equal(s.pin.media().length - before, 2 + 3, 'three registrations, then it gave up');
    } finally {
      s.pin.expireUploads(false);
    }
  });

  describe('reconcile after a crash (the adapter against the emulator)', () => {
    const inputFor = (content: string, checkpoint?: Record<string, unknown>): PublishInput => ({
      account: { id: 1, orgId: 1, network: 'pinterest', username: 'ada_pins', networkUniqueId: s.ada.userId, serviceUrl: null, accessToken: s.ada.token, refreshToken: null, credential: null },
      containers: [{ content, media: [{ url: 'https://media.example.com/a.png', filename: 'a.png' }] }],
      block: { board_id: s.board.id },
      fetchMedia: async () => ({ bytes: PNG_1X1, contentType: 'image/png' }),
      openMedia: () => { throw new Error('not opened for a base64 image'); },
      userFetch: fetch,
      saveTokens: async () => {},
      ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
      ...(checkpoint ? { checkpoint } : {}),
    });
    const adapter = () => createPinterestAdapter({ apiUrl: s.pin.url, publicBaseUrl: s.h.front.url, realNetwork: false });

    it('finds the pin that was created, and says absent for one never sent', async () => {
      const first = await adapter().prepare(inputFor('crashed pin'));
      const reservation = first.reserve(0);
      const pin = await first.publishPart(0, reservation, undefined);
      assert.deepEqual(await (await adapter().prepare(inputFor('crashed pin'))).reconcile(0, reservation, undefined), pin);
      const never = await adapter().prepare(inputFor('never sent'));
      assert.equal(await never.reconcile(0, never.reserve(0), undefined), 'absent');
    });

    it('a local install\'s own media (PUBLIC_BASE_URL http://localhost) go to the real Pinterest as base64, which it could not fetch', async () => {
      const local = createPinterestAdapter({ apiUrl: s.pin.url, publicBaseUrl: 'http://localhost:3000', realNetwork: true });
      const own = { ...inputFor('from a laptop'), containers: [{ content: 'from a laptop', media: [{ url: 'http://localhost:3000/media/abc/cat.png', filename: 'cat.png' }] }] };
      const prepared = await local.prepare(own);
      const ref = await prepared.publishPart(0, prepared.reserve(0), undefined);
      const pin = s.pin.pins().find((p) => p.id === ref.platformId)!;
      assert.equal((pin.mediaSource as any).source_type, 'image_base64');
      assert.equal(pin.files[0]!.bytes, PNG_1X1.length);
    });

    it('a video pin without a stored ready checkpoint was never sent: absent, without asking', async () => {
      const video: PublishInput = { ...inputFor('video'), containers: [{ content: 'video', media: [{ url: 'https://media.example.com/v.mp4', filename: 'v.mp4' }] }] };
      const calls = s.pin.calls().length;
      const prepared = await adapter().prepare({ ...video, checkpoint: { position: 0, video: { mediaId: '1', uploadUrl: '', uploadParameters: {}, uploaded: true } } });
      assert.equal(await prepared.reconcile(0, prepared.reserve(0), undefined), 'absent');
      assert.equal(s.pin.calls().length, calls);
    });

    it('ends unknown when the board holds more pins than a search reads (2,500), ours not among them', async () => {
      const crowded = s.pin.addBoard({ ownerId: s.ada.userId, name: 'Crowded' });
      s.pin.addPins(crowded.id, 2600);
      const prepared = await adapter().prepare({ ...inputFor('lost in the crowd'), block: { board_id: crowded.id } });
      const reads = s.pin.calls().length;
      await assert.rejects(prepared.reconcile(0, prepared.reserve(0), undefined), (error: PublishError) => {
        assert.equal(error.kind, 'unknown');
        assert.equal(error.message, 'pinterest: could not tell whether container 1 is already posted (the board has more than 2500 pins); check the board on Pinterest before posting it again');
        return true;
      });
      assert.equal(s.pin.calls().length - reads, 10, 'ten pages of 250');
    });

    it('ends unknown when the board cannot be read', async () => {
      const prepared = await adapter().prepare(inputFor('unreadable'));
      s.pin.failNext({ status: 503, path: `/v5/boards/${s.board.id}/pins` });
      await assert.rejects(prepared.reconcile(0, prepared.reserve(0), undefined), (error: PublishError) => {
        assert.equal(error.kind, 'unknown');
        assert.match(error.message, /^pinterest: could not tell whether container 1 is already posted \(pinterest: server error 503/);
        return true;
      });
    });
  });
});
