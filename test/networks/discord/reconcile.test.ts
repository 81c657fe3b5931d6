// Reconciling a bot's message after a crash (bot-publish.ts): within NONCE_TRUST_MS of the reservation
// the adapter answers 'absent', so the engine sends again under the same nonce (Discord then answers
// the message already made: crash.test.ts shows nothing is sent twice); later it reads the channel's
// messages since the reservation: the bot's one message with the container's text and files is it,
// none is absent (when the read shows any message at all: a bot without Read Message History is
// answered none, which proves nothing), several cannot be told apart, one another destination owns is not this one's. A
// webhook account cannot tell at all, and neither can a bot's forum post (opened without a nonce).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordEmulator, type BotView, type DiscordEmulator } from '../../../emulators/discord/server.ts';
import { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { createDiscordAdapter } from '../../../src/networks/discord/adapter.ts';

let dc: DiscordEmulator;
let bot: BotView;

before(async () => {
  dc = await startDiscordEmulator();
  bot = dc.addBot({ username: 'Reconciler' });
});
after(() => dc.close());

const input = (channelId: string, owned: string[] = [], block?: Record<string, unknown>) => ({
  account: { id: 1, orgId: 1, network: 'discord', username: '#c', networkUniqueId: `channel:${channelId}`, serviceUrl: null, accessToken: null, refreshToken: null, credential: JSON.stringify({ botToken: bot.token, channelId }) },
  containers: [{ content: 'the root', media: [] }, { content: 'the reply', media: [] }],
  block,
  ownedElsewhere: async (ids: string[]) => new Set(ids.filter((id) => owned.includes(id))),
} as unknown as PublishInput);

const channel = (kind: 'text' | 'forum' = 'text') => {
  const made = dc.addChannel({ kind });
  dc.grantChannel(bot.id, made.id);
  return made.id;
};
const send = (channelId: string, content: string) => fetch(`${dc.url}/api/v10/channels/${channelId}/messages`, {
  method: 'POST', headers: { authorization: `Bot ${bot.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ content }),
}).then(async (r) => (await r.json() as { id: string }).id);
const prepared = (channelId: string, owned?: string[], block?: Record<string, unknown>) =>
  createDiscordAdapter({ origin: dc.url, configured: dc.url }).prepare(input(channelId, owned, block));
const ago = (ms: number) => ({ startedAt: new Date(Date.now() - ms).toISOString(), nonce: 'n1' });
const unknown = (pattern: RegExp) => (e: unknown) => e instanceof PublishError && e.kind === 'unknown' && pattern.test(e.message);

describe('reconciling a bot\'s message', () => {
  test('within the nonce\'s minutes: absent, so the engine sends again under the same nonce', async () => {
    assert.equal(await (await prepared(channel())).reconcile(0, ago(30_000), undefined), 'absent');
  });

  test('later: the bot\'s one message since the reservation; none in a channel read back is absent, an empty read is unknown; two cannot be told apart; one owned elsewhere is not this one', async () => {
    const id = channel();
    const p = await prepared(id);
    await assert.rejects(p.reconcile(0, ago(10 * 60_000), undefined), unknown(/the channel shows no message since then/), 'an empty read proves nothing: a bot without Read Message History sees none');
    await send(id, 'something else');
    assert.equal(await p.reconcile(0, ago(10 * 60_000), undefined), 'absent', 'the channel is readable and nothing of the bot\'s is this container');
    dc.advanceClock(10_000); // past the bucket's window: the reads below are a reconcile each, as after as many crashes
    const root = await send(id, 'the root');
    const found = await p.reconcile(0, ago(10 * 60_000), undefined);
    assert.equal((found as { platformId: string }).platformId, root);
    const reply = await send(id, 'the reply');
    const ref = { platformId: root, url: '', ref: { channelId: id } };
    assert.equal(((await p.reconcile(1, ago(10 * 60_000), ref)) as { platformId: string }).platformId, reply);
    const again = await send(id, 'the root');
    await assert.rejects(p.reconcile(0, ago(10 * 60_000), undefined), unknown(/2 messages of the bot since then have this container's text and files/));
    assert.equal(((await (await prepared(id, [again])).reconcile(0, ago(10 * 60_000), undefined)) as { platformId: string }).platformId, root);
  });

  test('a forum post\'s root cannot be told', async () => {
    const p = await prepared(channel('forum'), [], { threadName: 'Idea' });
    await assert.rejects(p.reconcile(0, ago(10_000), undefined), unknown(/a forum post is opened without a nonce/));
  });
});
