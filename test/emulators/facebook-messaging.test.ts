// The Facebook emulator's Instagram Send API on the Facebook Login path: the Page's node
// (/{page-id}/messages, or /me/messages with the Page token) takes messages for its linked Instagram
// account; /{ig-user-id}/messages on graph.facebook.com, or another Page's node, is refused.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';

const APP = { clientId: '4242424242', clientSecret: 'emulator-secret' };
const V = 'v23.0';
const SCOPES = ['instagram_basic', 'instagram_manage_messages', 'pages_messaging', 'pages_show_list'];

describe('the Facebook emulator\'s Instagram Send API', () => {
  let fb: FacebookEmulator;
  let hooks: Server;
  let pageId: string;
  let igId: string;
  let token: string;
  let contactId: string;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp({ ...APP, redirectUris: ['https://crier.example/cb'] });
    hooks = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    fb.instagramMessaging.subscribe(`http://127.0.0.1:${(hooks.address() as AddressInfo).port}/`, APP.clientSecret);
    fb.instagramMessaging.echoSends(false);
    const user = fb.addUser({ pages: [{ name: 'Shop', instagram: { username: 'shop' } }] });
    pageId = user.pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, SCOPES);
    igId = (await (await fetch(`${fb.url}/${V}/${pageId}?fields=instagram_business_account&access_token=${token}`)).json() as any).instagram_business_account.id;
    contactId = fb.instagramMessaging.addContact({ username: 'buyer' }).id;
    await fb.instagramMessaging.message({ igUserId: igId, from: contactId, text: 'hello' });
  });
  after(async () => {
    await fb.close();
    await new Promise((resolve) => hooks.close(resolve));
  });

  const send = async (node: string, as = token) => {
    const res = await fetch(`${fb.url}/${V}/${node}/messages`, {
      method: 'POST',
      headers: { authorization: `OAuth ${as}`, 'content-type': 'application/json' },
      body: JSON.stringify({ recipient: { id: contactId }, message: { text: 'hi' } }),
    });
    return { status: res.status, body: await res.json() as any };
  };

  test('/me/messages and /{page-id}/messages with the Page token send as the linked Instagram account', async () => {
    for (const node of ['me', pageId]) {
      const ok = await send(node);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.recipient_id, contactId);
      assert.equal(fb.instagramMessaging.messages(igId).find((m) => m.mid === ok.body.message_id)?.from, 'account');
    }
  });

  test('/{ig-user-id}/messages on graph.facebook.com is refused (Unsupported post request, #100/33), and nothing is sent', async () => {
    const before = fb.instagramMessaging.messages(igId).length;
    const refused = await send(igId);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 100);
    assert.equal(refused.body.error.error_subcode, 33);
    assert.match(refused.body.error.message, new RegExp(`^Unsupported post request\\. Object with ID '${igId}'`));
    assert.equal(fb.instagramMessaging.messages(igId).length, before);
  });

  test('another Page\'s node is refused the same way', async () => {
    const other = fb.addUser({ pages: [{ name: 'Other' }] }).pageIds[0]!;
    const refused = await send(other);
    assert.equal(refused.body.error.error_subcode, 33);
  });
});
