// Instagram direct messages through Crier's messaging capability (Instagram API with Facebook Login,
// the Page's token) against the Facebook emulator: the Send API is the Page's, POST /me/messages
// with the Page token (Meta's Messenger Platform "Instagram: Send a Message" and "Private Replies"),
// never /{ig-user-id}/messages, which belongs to the Instagram Login path (graph.instagram.com).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import { instagram } from '../../../src/networks/instagram/index.ts';
import { INSTAGRAM_SCOPES, MESSAGING_SCOPES } from '../../../src/networks/instagram/oauth.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

describe('instagram direct messages', () => {
  let fb: FacebookEmulator;
  let hooks: Server;
  let caps: NetworkCapabilities;
  let igId: string;
  let session: AccountSession;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    // The emulator delivers the contact's message (and echoes) as webhooks: a callback that takes them.
    hooks = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    fb.instagramMessaging.subscribe(`http://127.0.0.1:${(hooks.address() as AddressInfo).port}/`, APP.clientSecret);
    fb.instagramMessaging.echoSends(false);
    // Connected before this change: the account keeps only the IG user id and the Page's token.
    const page = fb.addPage(fb.addUser({ pages: [] }).id, { name: 'Acme', instagram: { username: 'acme' } });
    igId = page.instagram!.id;
    const token = fb.issuePageToken(page.id, APP.clientId, [...INSTAGRAM_SCOPES, ...MESSAGING_SCOPES]);
    session = {
      account: { id: 2, orgId: 1, network: 'instagram', username: 'acme', networkUniqueId: igId, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
      saveTokens: async () => {},
      userFetch: fetch,
    };
    caps = instagram.capabilities!({ settings: { baseUrl: fb.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://127.0.0.1:1' });
  });
  after(async () => {
    await fb.close();
    await new Promise((resolve) => hooks.close(resolve));
  });

  const lastSend = () => fb.instagramMessaging.calls().filter((c) => c.method === 'POST').at(-1)!;

  it('an answer to a contact goes to the Page\'s Send API (/me/messages with the Page token), and arrives', async () => {
    const contact = fb.instagramMessaging.addContact({ username: 'buyer' });
    await fb.instagramMessaging.message({ igUserId: igId, from: contact.id, text: 'In stock?' });
    const sent = await caps.messages!.send(session, { recipientId: contact.id }, { text: 'Yes!', quickReplies: [{ id: 'buy', title: 'Buy' }] });
    assert.equal(lastSend().path, '/me/messages');
    assert.deepEqual(lastSend().body, { recipient: { id: contact.id }, message: { text: 'Yes!', quick_replies: [{ content_type: 'text', title: 'Buy', payload: 'buy' }] } });
    assert.equal(sent.recipientId, contact.id);
    const delivered = fb.instagramMessaging.messages(igId).find((m) => m.mid === sent.platformMessageId);
    assert.deepEqual([delivered?.from, delivered?.text], ['account', 'Yes!']);
  });

  it('a private reply to a comment goes to the same Send API with recipient.comment_id', async () => {
    const contact = fb.instagramMessaging.addContact({ username: 'commenter' });
    const { comment } = await fb.instagramMessaging.comment({ igUserId: igId, mediaId: '17900000000000001', from: contact.id, text: 'Price?' });
    const sent = await caps.messages!.send(session, { commentId: comment.id }, { text: 'Sent you the price' });
    assert.equal(lastSend().path, '/me/messages');
    assert.deepEqual(lastSend().body, { recipient: { comment_id: comment.id }, message: { text: 'Sent you the price' } });
    assert.equal(sent.recipientId, contact.id);
  });
});
