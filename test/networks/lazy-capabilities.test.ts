// lazyCapabilities: the declared functions exist at start and load their module on the first call
// (once for concurrent first calls); the contract suite's check finds every way a declaration and
// its module can disagree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkCapabilities } from '../../src/networks/capabilities.ts';
import { lazyCapabilities, verifyLazyShape } from '../../src/networks/lazy-capabilities.ts';

const session = {} as any;
const post = { root: { platformId: 'p1' } } as any;

function module(): NetworkCapabilities {
  return {
    remove: async (_s, p) => (p.root.platformId === 'p1' ? 'removed' : 'absent'),
    comments: { list: async () => ({ items: [] }), reply: async (_s, _p, text) => ({ replyId: `r:${text}` }) },
    listings: [{ path: 'boards', summary: 'Boards', list: async (_s, params) => [{ asked: params.name ?? null }] }],
  };
}

test('nothing loads until a call; concurrent first calls load once; each call reaches the same function of the module', async () => {
  let loads = 0;
  const caps = lazyCapabilities('a test module', { remove: true, comments: { list: true, reply: true }, listings: [{ path: 'boards', summary: 'Boards' }] }, async () => { loads++; return module(); });
  assert.deepEqual(Object.keys(caps).sort(), ['comments', 'listings', 'remove']);
  assert.deepEqual([caps.listings![0]!.path, caps.listings![0]!.summary], ['boards', 'Boards']);
  assert.equal(loads, 0);
  const [removed, reply] = await Promise.all([caps.remove!(session, post), caps.comments!.reply(session, post, 'hi')]);
  assert.deepEqual([removed, reply, loads], ['removed', { replyId: 'r:hi' }, 1]);
  assert.deepEqual(await caps.listings![0]!.list(session, { name: 'x' }), [{ asked: 'x' }]);
  assert.equal(loads, 1);
  assert.deepEqual(await verifyLazyShape(caps), []);
});

test('eager parts are given as they are, merged one level deep, and not required of the module', async () => {
  const inbound = { handshake: () => undefined, recipients: () => [], verify: () => true, parse: () => [] };
  const caps = lazyCapabilities('a test module', { remove: true, messages: { send: true } }, async () => ({ remove: module().remove, messages: { scopes: ['old'], send: async () => ({ platformMessageId: 'm', recipientId: 'r' }) } } as unknown as NetworkCapabilities), { inbound, messages: { scopes: ['messaging'] } });
  assert.equal(caps.inbound, inbound);
  assert.deepEqual(caps.messages!.scopes, ['messaging']);
  assert.deepEqual(await caps.messages!.send(session, { recipientId: 'r' }, { text: 't' }), { platformMessageId: 'm', recipientId: 'r' });
  assert.deepEqual(await verifyLazyShape(caps), []);
});

test('the check names a function declared but missing, one implemented but undeclared, and a listing declared otherwise', async () => {
  const caps = lazyCapabilities('a test module', { remove: true, ownPosts: true, comments: { list: true }, listings: [{ path: 'boards', summary: 'Other' }] }, async () => module());
  assert.deepEqual((await verifyLazyShape(caps)).sort(), [
    'comments.reply is implemented but not declared',
    'listings[0] is boards "Boards", declared boards "Other"',
    'ownPosts is declared but not implemented',
  ]);
  await assert.rejects(caps.ownPosts!(session, {}), /the loaded capabilities have no function ownPosts/);
});

test('capabilities that are not lazy have nothing to check', async () => {
  assert.deepEqual(await verifyLazyShape(module()), []);
});
