// Meta's own Node client, facebook-nodejs-business-sdk (unchanged), against the Facebook emulator:
// reading a Page, posting to its feed, reading a post's comments. The SDK's objects (Page, PagePost…)
// always call FacebookAdsApi.GRAPH (https://graph.facebook.com, a static getter with no setting);
// its public FacebookAdsApi#call takes a base URL as its sixth argument (`urlOverride`), which is how
// it reaches the emulator here.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';

// The SDK ships no type declarations: loaded as the CommonJS module it is.
const bizSdk = createRequire(import.meta.url)('facebook-nodejs-business-sdk');
const APP = { clientId: '4242424242', clientSecret: 'emulator-secret', redirectUris: ['https://crier.example/cb'] };

describe('facebook-nodejs-business-sdk against the Facebook emulator', () => {
  let fb: FacebookEmulator;
  let pageId: string;
  let api: any;
  /** FacebookAdsApi#call(method, path parts, params, files, multipart, urlOverride). */
  const call = (method: string, path: string[], params: Record<string, unknown> = {}) => api.call(method, path, params, {}, false, fb.url);

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    pageId = fb.addUser({ pages: [{ name: 'Shop', username: 'shoppage' }] }).pageIds[0]!;
    const token = fb.issuePageToken(pageId, APP.clientId, ['pages_manage_posts', 'pages_read_engagement', 'pages_read_user_content']);
    // crash_log false: the SDK's crash reporter would post to graph.facebook.com.
    api = new bizSdk.FacebookAdsApi(token, 'en_US', false);
  });
  after(() => fb.close());

  test('reads the Page, posts to its feed (the SDK sends JSON) and reads the post\'s comments', async () => {
    assert.deepEqual(await call('GET', [pageId], { fields: 'id,name' }), { id: pageId, name: 'Shop' });
    const created = await call('POST', [pageId, 'feed'], { message: 'Hello from the SDK' });
    assert.match(created.id, new RegExp(`^${pageId}_\\d+$`));
    assert.equal(fb.pages.posts().find((p) => p.id === created.id)?.message, 'Hello from the SDK');
    const comment = fb.pages.addComment(created.id, { message: 'Nice', fromName: 'Ann' });
    const comments = await call('GET', [created.id, 'comments'], { fields: 'id,message,from' });
    assert.deepEqual(comments.data.map((c: any) => [c.id, c.message, c.from?.name]), [[comment.id, 'Nice', 'Ann']]);
  });

  test('a Graph error comes back as the SDK\'s FacebookRequestError with Meta\'s code', async () => {
    await assert.rejects(call('POST', [pageId, 'feed'], {}), (error: any) => {
      assert.equal(error.name, 'FacebookRequestError');
      assert.equal(error.response.code, 100);
      return true;
    });
  });
});
