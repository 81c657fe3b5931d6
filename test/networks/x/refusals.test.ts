// X's refusals as Crier's X adapter (src/networks/x) meets them from the X emulator over real HTTP:
// a rate limit in the body X's rate-limit page shows, with its x-rate-limit-* headers; a video longer
// than the posting user may post; and the scopes Crier asks for, which cover every call it makes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startXEmulator, type XEmulator } from '../../../emulators/x/server.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import { PublishError } from '../../../src/core/errors.ts';
import type { AccountCredentials } from '../../../src/core/account.ts';
import type { MediaInput, PartRef } from '../../../src/core/post.ts';
import { createXAdapter } from '../../../src/networks/x/adapter.ts';
import { xCapabilities } from '../../../src/networks/x/capabilities.ts';
import { X_SCOPES } from '../../../src/networks/x/oauth.ts';
import { mp4Lasting } from '../../helpers/media.ts';

let x: XEmulator;
let count = 0;

before(async () => {
  x = await startXEmulator({ rateLimits: { 'POST /2/tweets': 2 } });
});
after(() => x.close());

function account(extra: { premium?: boolean; scopes?: string[] } = {}) {
  count += 1;
  const token = `refusal-token-${count}`;
  const user = x.addUser({ username: `refused${count}`, accessToken: token, ...extra });
  const credentials: AccountCredentials = { id: count, orgId: 1, network: 'x', username: user.username, networkUniqueId: user.id, serviceUrl: null, accessToken: token, refreshToken: null, credential: null };
  return { user, token, account: credentials };
}

/** Publishes one container through the X adapter; the video's processing waits on the emulator clock. */
async function publish(acct: AccountCredentials, content: string, files: Record<string, Buffer> = {}): Promise<PartRef> {
  const adapter = createXAdapter({ apiUrl: x.url, sleep: async (ms) => x.clock.advance(ms) });
  const media: MediaInput[] = Object.keys(files).map((url) => ({ url, filename: url.split('/').at(-1)! }));
  const prepared = await adapter.prepare({
    account: acct,
    containers: [{ content, media }],
    block: undefined,
    fetchMedia: async (url) => ({ bytes: files[url]!, contentType: url.endsWith('.mp4') ? 'video/mp4' : 'image/png' }),
    openMedia: () => { throw new Error('not opened'); },
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  return prepared.publishPart(0, prepared.reserve(0), undefined);
}

async function refusal(promise: Promise<unknown>): Promise<PublishError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `a PublishError, got ${String(error)}`);
  return error;
}

describe('a rate limit, in the shape X documents', () => {
  it('comes back retryable with X\'s reason and the wait its x-rate-limit-reset gives', async () => {
    const { account: acct } = account();
    await publish(acct, 'one');
    await publish(acct, 'two');
    const error = await refusal(publish(acct, 'three'));
    assert.equal(error.kind, 'retryable');
    assert.equal(error.code, 'rate_limited');
    assert.match(error.message, /^x: rate limited \(Rate limit exceeded\)/);
    // The window opened with the first post: 15 minutes of emulator time (the reset is in whole seconds), which runs with the wall clock here.
    assert.ok(error.retryAfterMs! > 800_000 && error.retryAfterMs! <= 901_000, String(error.retryAfterMs));
    const answered = x.calls().filter((c) => c.path === '/2/tweets' && c.userId === acct.networkUniqueId).map((c) => c.status);
    assert.deepEqual(answered, [201, 201, 429]);
  });
});

describe('a video longer than the posting user may post', () => {
  it('fails the container with X\'s 403 reason, word for word', async () => {
    const { account: acct } = account();
    const error = await refusal(publish(acct, 'the whole talk', { 'https://files.example/talk.mp4': mp4Lasting(21 * 60) }));
    assert.equal(error.kind, 'permanent');
    assert.equal(error.message, 'x: This user is not allowed to post a video longer than 20 minutes. (container 1)');
    assert.deepEqual(x.tweets().filter((t) => t.authorId === acct.networkUniqueId), []);
  });

  it('is posted for a Premium user, whose cap is 125 minutes', async () => {
    const { account: acct } = account({ premium: true });
    const part = await publish(acct, 'the whole talk', { 'https://files.example/talk.mp4': mp4Lasting(21 * 60) });
    assert.equal(x.tweets().find((t) => t.id === part.platformId)?.mediaIds.length, 1);
  });
});

describe('the scopes Crier asks for', () => {
  it('carry every call of publishing, reading back and removal, now that each operation asks all its scopes', async () => {
    const { account: acct, user } = account({ scopes: X_SCOPES });
    const part = await publish(acct, 'with a picture', { 'https://files.example/a.png': Buffer.from('89504e470d0a1a0a0000000d494844520000000200000003080600000000000000', 'hex') });
    const session: AccountSession = { account: acct, saveTokens: async () => {}, userFetch: fetch };
    const caps = xCapabilities(x.url);
    const post = { root: part, parts: [part], block: {} };
    await caps.analytics!.post!(session, post);
    await caps.analytics!.account!(session, { since: new Date(Date.now() - 86_400_000), until: new Date() });
    assert.equal(await caps.remove!(session, post), 'removed');
    const refused = x.calls().filter((c) => c.userId === user.id && c.status === 403);
    assert.deepEqual(refused, []);
  });
});
