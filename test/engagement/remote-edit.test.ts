// PATCH /v1/posts/:id/remote: a published post's text changed on the networks that can edit one,
// judged first as publishing would (one refusal changes nothing anywhere), answered per account, and
// shown on the post afterwards (editedAt, editedContainers) while the post as asked stays. Telegram
// (a network with `edit`) is the witness; a destination on a network without it says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { startTelegramStack, type Channel, type TelegramStack } from '../networks/telegram/setup.ts';

describe('editing a post on the networks', () => {
  let s: TelegramStack;

  before(async () => {
    s = await startTelegramStack();
  });
  after(async () => s.close());

  const api = (method: string, path: string, body?: unknown) => s.h.server.request(method, path, { key: s.org.key, ...(body === undefined ? {} : { body }) });
  const texts = (channel: Channel) => s.tg.chat(channel.chatId)!.messages.map((m: any) => m.text ?? m.caption);

  async function publishedThread(channel: Channel, contents: string[]): Promise<string> {
    const postId = await s.create(channel, { containers: contents.map((content) => ({ content })) });
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    return postId;
  }

  /** A destination published on a network whose API cannot edit, beside the Telegram one. */
  async function withUneditableDestination(postId: string): Promise<void> {
    const other = await s.h.server.addAccount(s.org, 'tiktok', `tok${Date.now()}`);
    await s.h.server.db.query(
      "INSERT INTO targets (org_id, post_id, account_id, status, platform_post_id, platform_post_url, published_at) VALUES ($1, $2, $3, 'published', 'v1', 'https://tiktok.com/@tok/video/v1', now())",
      [s.org.orgId, decodeId(postId), other.rawId],
    );
  }

  it("changes the second message of a thread, says per account what happened, and the post shows what the network shows", async () => {
    const channel = await s.addChannel();
    const postId = await publishedThread(channel, ['Launch at 9', 'Doors open at 8:30']);
    await withUneditableDestination(postId);
    const edited = await api('PATCH', `/v1/posts/${postId}/remote`, { containers: [{}, { content: 'Doors open at 8:45' }] });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(edited.body.data.map((d: any) => [d.social_account.network, d.outcome]), [['telegram', 'edited'], ['tiktok', 'not_supported']]);
    assert.match(edited.body.data[1].error, /TikTok's API cannot edit a post/);
    assert.deepEqual(texts(channel), ['Launch at 9', 'Doors open at 8:45']);

    const read = (await api('GET', `/v1/posts/${postId}`)).body.post;
    assert.deepEqual(read.containers.map((c: any) => c.content), ['Launch at 9', 'Doors open at 8:30'], 'the post as asked stays');
    assert.deepEqual(read.socialAccounts[0].editedContainers, [{ position: 1, content: 'Doors open at 8:45' }]);
    assert.ok(Date.now() - Date.parse(read.socialAccounts[0].editedAt) < 60_000, read.socialAccounts[0].editedAt);
    assert.equal(read.socialAccounts[1].editedAt, null);
    assert.equal(read.socialAccounts[1].editedContainers, null);

    const listed = (await api('GET', `/v1/posts?limit=50`)).body.posts.find((p: any) => p.id === postId);
    assert.deepEqual(listed.socialAccounts.map((a: any) => [a.editedAt, a.editedContainers]), read.socialAccounts.map((a: any) => [a.editedAt, a.editedContainers]));

    const again = await api('PATCH', `/v1/posts/${postId}/remote`, { content: 'Launch at 10', socialAccountIds: [channel.id] });
    assert.deepEqual(again.body.data.map((d: any) => [d.social_account.network, d.outcome]), [['telegram', 'edited']]);
    assert.deepEqual(texts(channel), ['Launch at 10', 'Doors open at 8:45']);
    const reread = (await api('GET', `/v1/posts/${postId}`)).body.post;
    assert.deepEqual(reread.socialAccounts[0].editedContainers, [{ position: 0, content: 'Launch at 10' }, { position: 1, content: 'Doors open at 8:45' }]);
  });

  it('a text the network would refuse is a 400 naming it, and nothing changes anywhere', async () => {
    const channel = await s.addChannel();
    const second = await s.addChannel();
    const created = await api('POST', '/v1/posts', { accounts: [channel.id, second.id], content: 'short' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const postId = created.body.post.id;
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published']);
    const refused = await api('PATCH', `/v1/posts/${postId}/remote`, { content: 'x'.repeat(5000) });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'validation_error');
    assert.match(refused.body.details[0].message, /^Telegram \(@[^)]+\): .*4,?096/);
    assert.deepEqual([texts(channel), texts(second)], [['short'], ['short']]);
    const read = (await api('GET', `/v1/posts/${postId}`)).body.post;
    assert.deepEqual(read.socialAccounts.map((a: any) => a.editedAt), [null, null]);
  });

  it('refuses a body that says nothing to change, or more than text, with per-field details', async () => {
    const channel = await s.addChannel();
    const postId = await publishedThread(channel, ['one']);
    const cases: [unknown, string][] = [
      [{}, 'content'],
      [{ content: 'a', containers: [{ content: 'b' }] }, 'content'],
      [{ containers: [{}] }, 'containers'],
      [{ containers: [{ content: 'a', media: [{ url: 'https://example.com/a.png' }] }] }, 'containers[0].media'],
      [{ containers: [{ content: 'a' }, { content: 'b' }] }, 'containers'],
      [{ content: 'a', socialAccountIds: ['nope'] }, 'socialAccountIds[0]'],
      [{ content: 'a', title: 'b' }, 'title'],
    ];
    for (const [body, field] of cases) {
      const refused = await api('PATCH', `/v1/posts/${postId}/remote`, body);
      assert.equal(refused.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(refused.body)}`);
      assert.ok(refused.body.details?.some((d: any) => d.field === field), `${JSON.stringify(body)}: ${JSON.stringify(refused.body.details)}`);
    }
    assert.deepEqual(texts(channel), ['one']);
  });

  it("a post still to publish is a 409, and another organization's post a 404", async () => {
    const channel = await s.addChannel();
    const later = await api('POST', '/v1/posts', { accounts: [channel.id], content: 'tomorrow', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    const refused = await api('PATCH', `/v1/posts/${later.body.post.id}/remote`, { content: 'today' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'post_not_finished');
    const stranger = await s.h.server.createOrg();
    const hidden = await s.h.server.request('PATCH', `/v1/posts/${later.body.post.id}/remote`, { key: stranger.key, body: { content: 'mine now' } });
    assert.equal(hidden.status, 404);
  });
});
