// Discord with real `crier worker` processes killed with SIGKILL while Discord holds the answer to an
// execution it has carried out: a webhook has no idempotency key and cannot read the channel back, so
// the worker that takes over cannot tell whether the message went out. It must say so (`unknown`,
// naming the channel to check) and never send it again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startDiscordStack, type DiscordStack, type Hook } from './setup.ts';

let s: DiscordStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startDiscordStack({}, { worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

const contents = (hook: Hook) => s.dc.channel(hook.webhook.channelId)!.messages.map((m) => m.content);

/** Starts a worker, waits until the channel holds `count` messages (the stalled execution took effect), kills it. */
async function killAfterSend(hook: Hook, count: number): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (contents(hook).length === count ? true : undefined), 60_000);
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
