// LinkedIn's own client, linkedin-api-client 0.3.0, unchanged, against the emulator: create a post
// (Rest.li CREATE on /posts), read it back, delete it, and initialize an image upload (the
// initializeUpload action). The client has no base-URL option: its URLs are absolute constants
// (https://api.linkedin.com/rest). Its constructor takes axios defaults and exposes the axios
// instance, so an axios request interceptor (axios's documented API) sends those URLs to the emulator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RestliClient } from 'linkedin-api-client';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/index.ts';

const VERSION = '202610';
const APP = { clientId: 'li-client-app', clientSecret: 'secret', redirectUris: ['https://crier.example/cb'] };

describe('linkedin-api-client against the LinkedIn emulator', () => {
  let li: LinkedInEmulator;
  let client: RestliClient;
  let author: string;
  let accessToken: string;

  before(async () => {
    li = await startLinkedInEmulator();
    li.addApp(APP);
    const member = li.addUser({});
    author = `urn:li:person:${member.sub}`;
    accessToken = li.oauth.issue(member.sub, APP.clientId, ['openid', 'profile', 'w_member_social', 'r_member_social']).accessToken;
    client = new RestliClient();
    client.axiosInstance.interceptors.request.use((config) => ({ ...config, url: config.url?.replace('https://api.linkedin.com', li.url) }));
  });
  after(() => li.close());

  test('create on /posts answers the URN the client reads as createdEntityId; get reads the post; delete removes it', async () => {
    const created = await client.create({
      resourcePath: '/posts',
      entity: {
        author, commentary: 'Sent by linkedin-api-client', visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
      },
      versionString: VERSION,
      accessToken,
    });
    assert.equal(created.status, 201);
    assert.match(String(created.createdEntityId), /^urn:li:share:\d{19}$/);
    assert.equal(li.posts().find((p) => p.urn === created.createdEntityId)?.commentarySent, 'Sent by linkedin-api-client');

    const got = await client.get({ resourcePath: '/posts/{id}', pathKeys: { id: created.createdEntityId }, versionString: VERSION, accessToken });
    assert.equal(got.status, 200);
    assert.deepEqual({ id: got.data.id, author: got.data.author, commentary: got.data.commentary }, { id: created.createdEntityId, author, commentary: 'Sent by linkedin-api-client' });

    const removed = await client.delete({ resourcePath: '/posts/{id}', pathKeys: { id: created.createdEntityId }, versionString: VERSION, accessToken });
    assert.equal(removed.status, 204);
    assert.equal(li.posts().find((p) => p.urn === created.createdEntityId)?.deleted, true);
  });

  test('the initializeUpload action on /images answers an upload URL on the emulator and an image URN', async () => {
    const res = await client.action({ resourcePath: '/images', actionName: 'initializeUpload', data: { initializeUploadRequest: { owner: author } }, versionString: VERSION, accessToken });
    assert.equal(res.status, 200);
    const value = res.data.value as { image: string; uploadUrl: string };
    assert.match(value.image, /^urn:li:image:/);
    assert.ok(value.uploadUrl.startsWith(li.url), value.uploadUrl);
    assert.equal(li.images().find((i) => i.urn === value.image)?.status, 'WAITING_UPLOAD');
  });

  test('a refusal reaches the client as LinkedIn\'s error: an article card without its title is a 422', async () => {
    const refused = await client.create({
      resourcePath: '/posts',
      entity: {
        author, commentary: 'An untitled card', visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED',
        content: { article: { source: 'https://crier.example/untitled' } },
      },
      versionString: VERSION,
      accessToken,
    }).then(() => undefined, (error: { response?: { status: number; data: unknown } }) => error.response);
    assert.deepEqual(refused && { status: refused.status, data: refused.data }, {
      status: 422, data: { status: 422, message: 'ERROR :: /content/article/title :: field is required but not found and has no default value\n' },
    });
  });
});
