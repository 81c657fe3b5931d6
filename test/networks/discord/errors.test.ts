// What Discord's refusals mean for a post (client.ts classify), from the emulator's answers: when to
// try again (a 429's retry_after, a float of seconds; the bucket and global scope named), a deleted
// webhook or a wrong token (auth: the account is disconnected), an unknown message or thread, a file
// too large, and a form Discord refused (its field error in the reason).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordEmulator, type DiscordEmulator, type WebhookView } from '../../../emulators/discord/server.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { DiscordClient } from '../../../src/networks/discord/client.ts';

let dc: DiscordEmulator;
let hook: WebhookView;
let client: DiscordClient;

before(async () => {
  dc = await startDiscordEmulator();
  dc.setBucket(1000, 1000);
  hook = dc.addWebhook({ name: 'Errors' });
  client = new DiscordClient(dc.url, hook);
});
after(() => dc.close());

async function failure(call: Promise<unknown>): Promise<PublishError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof PublishError, String(error));
    return error;
  }
  assert.fail('the call succeeded');
}

describe('Discord refusals as PublishErrors', () => {
  test('429: retryable, rate_limited, waiting retry_after rounded up to the millisecond, naming the bucket', async () => {
    dc.forceRateLimit(hook.id, 2.5004);
    const error = await failure(client.execute({ content: 'x' }, [], undefined));
    assert.deepEqual([error.kind, error.code, error.retryAfterMs], ['retryable', 'rate_limited', 2501]);
    assert.match(error.message, /^discord: rate limit of bucket [0-9a-f]{32} \(You are being rate limited\.\)$/);
  });

  test('a global 429 says so', async () => {
    dc.forceRateLimit(hook.id, 1, { global: true });
    const error = await failure(client.execute({ content: 'x' }, [], undefined));
    assert.match(error.message, /^discord: global rate limit/);
  });

  test('a wrong token (401, 50027) and a deleted webhook (404, 10015) are auth: connect again', async () => {
    const wrong = await failure(new DiscordClient(dc.url, { id: hook.id, token: 'wrong' }).execute({ content: 'x' }, [], undefined));
    assert.deepEqual([wrong.kind, wrong.code], ['auth', 'auth']);
    assert.match(wrong.message, /\(Invalid Webhook Token\); make a new webhook in the channel's settings and connect it again/);
    const doomed = dc.addWebhook({ name: 'Doomed' });
    dc.deleteWebhook(doomed.id);
    const gone = await failure(new DiscordClient(dc.url, doomed).webhook());
    assert.deepEqual([gone.kind, gone.code], ['auth', 'auth']);
  });

  test('an unknown message (10008) or thread (10003) is not_found', async () => {
    const message = await failure(client.deleteMessage('123456789012345678', undefined));
    assert.deepEqual([message.kind, message.code, message.message], ['permanent', 'not_found', 'discord: Unknown Message']);
    const thread = await failure(client.execute({ content: 'x' }, [], '123456789012345678'));
    assert.deepEqual([thread.code, thread.message], ['not_found', 'discord: Unknown Channel']);
  });

  test('Invalid Form Body: permanent, invalid, the field and Discord\'s words in the reason', async () => {
    const error = await failure(client.execute({ content: 'x', username: '' }, [], undefined));
    assert.deepEqual([error.kind, error.code], ['permanent', 'invalid']);
    assert.equal(error.message, 'discord: Invalid Form Body (username: Must be between 1 and 80 in length.)');
  });

  test('a file over the limit (413, 40005) is media_rejected', async () => {
    dc.setMaxFileBytes(3);
    const source = { size: 4, contentType: 'image/png', read: () => (async function* () { yield Buffer.from('abcd'); })() as any, bytes: async () => Buffer.from('abcd') };
    const error = await failure(client.execute({ content: 'x' }, [{ index: 0, filename: 'a.png', source: source as any }], undefined));
    dc.setMaxFileBytes(25 * 1024 * 1024);
    assert.deepEqual([error.kind, error.code], ['permanent', 'media_rejected']);
  });
});
