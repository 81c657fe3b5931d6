// A Discord bot with real `crier worker` processes killed with SIGKILL while Discord holds the answer to
// a message it has made: the worker that takes over reconciles within the nonce's minutes ('absent'),
// sends again under the same nonce with enforce_nonce, and Discord answers the message already made.
// The post is published, each message exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startDiscordStack, type BotAccount, type DiscordStack } from './setup.ts';

let s: DiscordStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startDiscordStack({}, { worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

const sent = (account: BotAccount) => s.dc.channel(account.channel.id)!.messages;

/** Starts a worker, waits until the channel holds `count` messages (the stalled send took effect), kills it. */
async function killAfterSend(account: BotAccount, count: number): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (sent(account).length === count ? true : undefined), 60_000);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

describe('a Discord bot with real worker processes', { concurrency: false }, () => {
  test('killed before the root\'s answer: the next worker sends again under the same nonce, and the root exists once', async () => {
    const account = await s.addBotAccount();
    const postId = await s.create(account, { containers: [{ content: 'sent once' }] });
    s.dc.stallAnswer(20_000);
    await killAfterSend(account, 1);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    assert.deepEqual(sent(account).map((m) => m.content), ['sent once'], 'Discord made the message once');
    assert.equal(destination.platformPostId, sent(account)[0]!.id);
    const sends = (await (await fetch(`${s.dc.url}/__emulator/calls`)).json() as { calls: any[] }).calls
      .filter((c) => c.method === 'POST' && c.path.endsWith(`/channels/${account.channel.id}/messages`));
    // The killed worker's call is still held (recorded once answered, 20 s on): what is recorded is the
    // next worker's send, which Discord answered with the message already made.
    assert.deepEqual(sends.map((c) => c.status), [200], 'sent again after the crash, answered the same message');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed before a reply\'s answer: the reply is not made twice, the rest follow in order', async () => {
    const account = await s.addBotAccount();
    const postId = await s.create(account, { containers: [{ content: 'root' }, { content: 'reply' }, { content: 'last' }] });
    s.dc.stallAnswer(20_000, 1);
    await killAfterSend(account, 2);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const messages = sent(account);
    assert.deepEqual(messages.map((m) => [m.content, m.reference?.messageId]), [['root', undefined], ['reply', messages[0]!.id], ['last', messages[0]!.id]]);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
