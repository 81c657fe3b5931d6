// Mastodon after publishing, through Crier's HTTP API as a client uses it: a thread published, a
// follower's comment and an answer to it read as Reply records (the thread's own parts left out),
// a reply sent as the account, the post's figures, the text edited on the instance, an import of the
// account's statuses (a boost counted failed), and the post deleted. Each checked on the emulator too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startImportRunner, type ImportRunner } from '../../../src/engagement/import-worker.ts';
import { createLogger } from '../../../src/log.ts';
import { startMastodonStack, type MastodonStack } from './setup.ts';

describe('Mastodon through the API after publishing', () => {
  let s: MastodonStack;
  let imports: ImportRunner;

  before(async () => {
    s = await startMastodonStack();
    const { db, box, networks } = s.h.server;
    imports = startImportRunner({ db, box, networks, logger: createLogger('silent'), userFetch: fetch }, { pollMs: 100 });
  });
  after(async () => {
    await imports.stop();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.h.server.request(method, path, { key: s.org.key, ...(body === undefined ? {} : { body }) });

  it('replies, figures, edit and delete of a published thread', async () => {
    const account = await s.connect();
    const post = await s.publish(account, { containers: [{ content: 'Launch day' }, { content: 'Details in this thread' }] });
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const [root, second] = s.masto.statusesOf(account.remote.id);
    const fan = s.masto.addAccount({ username: 'fan' });
    const comment = s.masto.reply(fan.id, root!.id, 'Congrats!');
    s.masto.reply(account.remote.id, comment.id, 'Thank you');
    s.masto.favourite(fan.id, root!.id);
    s.masto.boost(fan.id, root!.id);

    const replies = await api('GET', `/v1/posts/${post.id}/replies?include_replies=true`);
    assert.equal(replies.status, 200, JSON.stringify(replies.body));
    assert.deepEqual(replies.body.data.map((r: any) => [r.id, r.author_username, r.text, r.replies.map((a: any) => a.text)]), [[comment.id, 'fan', 'Congrats!', ['Thank you']]]);

    const sent = await api('POST', `/v1/posts/${post.id}/replies`, { content: 'See you there', parent_comment_id: comment.id });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const answer = s.masto.statusesOf(account.remote.id).find((st) => st.id === sent.body.reply_id)!;
    assert.equal(answer.inReplyToId, comment.id);
    assert.match(answer.text, /^@fan See you there$/);

    const figures = await api('GET', `/v1/posts/${post.id}/analytics`);
    assert.equal(figures.status, 200, JSON.stringify(figures.body));
    const metrics = figures.body.data?.[0]?.metrics ?? figures.body.metrics_by_account?.[0]?.metrics;
    assert.deepEqual([metrics.likes, metrics.shares, metrics.comments, metrics.views], [1, 1, 1, null], JSON.stringify(figures.body));

    const edited = await api('PATCH', `/v1/posts/${post.id}/remote`, { containers: [{}, { content: 'Details below' }] });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(edited.body.data.map((d: any) => d.outcome), ['edited']);
    const reread = s.masto.statusesOf(account.remote.id).find((st) => st.id === second!.id)!;
    assert.equal(reread.text, 'Details below');
    assert.ok(reread.editedAt, 'the instance marks the status edited');

    const removed = await api('DELETE', `/v1/posts/${post.id}/remote`);
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted']);
  });

  it("imports the account's statuses, the one written in the app imported, a boost counted failed", async () => {
    const account = await s.connect();
    const other = s.masto.addAccount({ username: 'other' });
    const theirs = s.masto.reply(other.id, (await s.publish(account, { content: 'mine, through Crier' })).socialAccounts[0].platformPostId, 'a reply');
    s.masto.boost(account.remote.id, theirs.id);
    // A status written in a Mastodon app, not through Crier: the one to import.
    const written = await fetch(`${s.masto.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${account.remote.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'written <b>in</b> the app' }) });
    assert.equal(written.status, 200);
    const started = await api('POST', `/v1/social-accounts/${account.id}/imports`, {});
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const importId = started.body.data?.id ?? started.body.id;
    let job: any;
    for (let i = 0; i < 100; i++) {
      job = (await api('GET', `/v1/social-accounts/${account.id}/imports/${importId}`)).body.data;
      if (['completed', 'partial', 'failed'].includes(job?.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(job.status, 'partial', JSON.stringify(job));
    assert.deepEqual([job.imported, job.skipped, job.failed], [1, 1, 1], 'the app\'s status imported, the one Crier published known already, the boost failed');
    const listed = (await api('GET', `/v1/posts?social_account_id=${account.id}`)).body.posts;
    assert.ok(listed.some((p: any) => p.containers[0].content === 'written <b>in</b> the app'), JSON.stringify(listed.map((p: any) => p.containers[0].content)));
  });
});
