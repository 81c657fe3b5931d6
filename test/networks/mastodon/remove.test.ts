// Deleting a post from Mastodon through DELETE /v1/posts/:id/remote: every status Crier made goes with
// DELETE /api/v1/statuses/:id, the replies first; a status already gone on the instance is not an error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startMastodonStack, type MastodonStack } from './setup.ts';

describe('deleting a Mastodon post', () => {
  let s: MastodonStack;

  before(async () => {
    s = await startMastodonStack();
  });
  after(async () => s.close());

  const remove = (postId: string) => s.h.server.request('DELETE', `/v1/posts/${postId}/remote`, { key: s.org.key });

  it('a thread: every status deleted on the instance, the destination shows deleted', async () => {
    const account = await s.connect();
    const postId = await s.create(account, { containers: [{ content: 'root' }, { content: 'reply' }] });
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const removed = await remove(postId);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted']);
    assert.deepEqual(s.masto.statusesOf(account.remote.id).map((st) => st.deleted), [true, true]);
    const read = await s.h.server.request('GET', `/v1/posts/${postId}`, { key: s.org.key });
    assert.equal(read.body.post.socialAccounts[0].status, 'deleted');
  });

  it('a revoked token: the post stays and the refusal says to reconnect', async () => {
    const account = await s.connect();
    const postId = await s.create(account, { containers: [{ content: 'stays' }] });
    await s.h.stack.waitForPost(s.org, postId);
    s.masto.revokeToken(account.remote.id);
    const removed = await remove(postId);
    assert.notEqual(removed.body.data?.[0]?.outcome, 'deleted', JSON.stringify(removed.body));
    assert.match(JSON.stringify(removed.body), /The access token was revoked/);
    assert.deepEqual(s.masto.statusesOf(account.remote.id).map((st) => st.deleted), [false]);
  });
});
