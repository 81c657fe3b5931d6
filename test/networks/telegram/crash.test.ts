// Telegram with real `crier worker` processes killed with SIGKILL while Telegram holds the answer to a
// send it has carried out: the Bot API has no idempotency key and a bot cannot read the chat back, so
// the worker that takes over cannot tell whether the message went out. It must say so (`unknown`,
// naming the chat to check) and never send it again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startTelegramStack, type Channel, type TelegramStack } from './setup.ts';

let s: TelegramStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startTelegramStack({}, { worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

/** Starts a worker, waits until the channel holds `count` messages (the stalled send took effect), kills it. */
async function killAfterSend(channel: Channel, count: number): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (s.tg.chat(channel.chatId)!.messages.length === count ? true : undefined), 60_000);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

describe('Telegram with real worker processes', { concurrency: false }, () => {
  test('killed before the root\'s answer: the next worker says it cannot tell, and sends nothing again', async () => {
    const channel = await s.addChannel();
    const postId = await s.create(channel, { containers: [{ content: 'sent once' }] });
    s.tg.stallAnswer('sendMessage', 20_000);
    await killAfterSend(channel, 1);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'unknown', destination.error);
    assert.match(destination.error, /^telegram: could not tell whether container 1 is already posted \(Telegram keeps no idempotency key and gives a bot no way to read the chat's messages\); check the chat before posting it again/);
    assert.deepEqual(s.tg.chat(channel.chatId)!.messages.map((m) => m.text), ['sent once'], 'Telegram got the message once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed before a reply\'s answer: the reply is unknown, the container after it never sent, nothing sent twice', async () => {
    const channel = await s.addChannel();
    const postId = await s.create(channel, { containers: [{ content: 'root' }, { content: 'reply' }, { content: 'never sent' }] });
    s.tg.stallAnswer('sendMessage', 20_000, 1);
    await killAfterSend(channel, 2);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'unknown', destination.error);
    assert.match(destination.error, /could not tell whether container 2 is already posted/);
    assert.deepEqual(s.tg.chat(channel.chatId)!.messages.map((m) => m.text), ['root', 'reply']);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
