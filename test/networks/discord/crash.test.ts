// Discord with real `crier worker` processes killed with SIGKILL while Discord holds the answer to a
// message it has made. A webhook has no idempotency key and cannot read the channel back, so the
// worker that takes over cannot tell whether the message went out: it must say so (`unknown`, naming
// the channel to check) and never send it again. A bot's messages carry a nonce with enforce_nonce:
// the worker that takes over reconciles within the nonce's minutes ('absent'), sends again under the
// same nonce, and Discord answers the message already made: published, each message exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startDiscordStack, type BotAccount, type DiscordStack, type Hook } from './setup.ts';

let s: DiscordStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startDiscordStack({}, { worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

const channelOf = (account: Hook | BotAccount) => ('webhook' in account ? account.webhook.channelId : account.channel.id);
const sent = (account: Hook | BotAccount) => s.dc.channel(channelOf(account))!.messages;
const contents = (account: Hook | BotAccount) => sent(account).map((m) => m.content);

/** Starts a worker, waits until the channel holds `count` messages (the stalled send took effect), kills it. */
async function killAfterSend(account: Hook | BotAccount, count: number): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (contents(account).length === count ? true : undefined), 60_000);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

describe('Discord with real worker processes', { concurrency: false }, () => {
  test('killed before the root\'s answer: the next worker says it cannot tell, and sends nothing again', async () => {
    const hook = await s.addHook();
    const postId = await s.create(hook, { containers: [{ content: 'sent once' }] });
    s.dc.stallAnswer(20_000);
    await killAfterSend(hook, 1);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'unknown', destination.error);
    assert.match(destination.error, /^discord: could not tell whether container 1 is already posted \(a Discord webhook has no idempotency key and cannot read the channel's messages\); check the channel before posting it again/);
    assert.deepEqual(contents(hook), ['sent once'], 'Discord got the message once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed before a follow-up\'s answer: it is unknown, the container after it never sent, nothing sent twice', async () => {
    const hook = await s.addHook();
    const postId = await s.create(hook, { containers: [{ content: 'root' }, { content: 'follow-up' }, { content: 'never sent' }] });
    s.dc.stallAnswer(20_000, 1);
    await killAfterSend(hook, 2);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'unknown', destination.error);
    assert.match(destination.error, /could not tell whether container 2 is already posted/);
    assert.deepEqual(contents(hook), ['root', 'follow-up']);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});

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
