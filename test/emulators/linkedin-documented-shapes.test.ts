// The LinkedIn emulator against the request and answer shapes LinkedIn documents
// (emulators/linkedin/description/*.json, each with its page and the date it was read): for every
// fixture the emulator gets the documented request and must answer with the documented example's
// shape (every key, of the same JSON type; no key the example lacks unless the fixture says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/index.ts';
import { assertDocumentedShape, fixtureNames, loadFixture, shapeProblems, type Fixture } from '../helpers/documented-shape.ts';


const DIR = new URL('../../emulators/linkedin/description/', import.meta.url);
const REDIRECT = 'https://crier.example/oauth/callback/linkedin';
const APP = { clientId: 'li-doc-app', clientSecret: 'li-doc-secret', redirectUris: [REDIRECT] };
/** A served LinkedIn-Version; the pages write it as a YYYYMM placeholder. */
const VERSION = '202511';
/** The documented ids the examples use, replaced by the emulator's own before sending. */
const DOC_ORGS = ['urn:li:organization:5515715', 'urn:li:organization:2414183'];
const DOC_IMAGES = ['urn:li:image:C5610AQFjSXx-9vtpqg', 'urn:li:image:C49klciosC89'];
const DOC_VIDEO = 'urn:li:video:C5F10AQGKQg_6y2a4sQ';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let li: LinkedInEmulator;
let accessToken = '';
let org = '';
const exercised = new Set<string>();

interface Answer { status: number; headers: Headers; body: unknown }

/** A /rest/ call with the headers every one needs and the member's token; a form (the token endpoint) with neither. */
async function send(method: string, path: string, init: { body?: unknown; form?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = init.form ? {} : { 'linkedin-version': VERSION, 'x-restli-protocol-version': '2.0.0', authorization: `Bearer ${accessToken}` };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(`${li.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The fixture's request with the documented ids replaced by `ids` (documented id → the emulator's). */
function localized<T>(value: T, ids: Record<string, string>): T {
  let text = JSON.stringify(value);
  for (const [documented, ours] of Object.entries(ids)) {
    // Paths carry URNs URL-encoded.
    text = text.split(documented).join(ours).split(encodeURIComponent(documented)).join(encodeURIComponent(ours));
  }
  return JSON.parse(text) as T;
}

async function check(name: string, ids: Record<string, string> = {}): Promise<Answer> {
  const fixture = loadFixture(DIR, name);
  exercised.add(name);
  const request = localized(fixture.request, { ...Object.fromEntries(DOC_ORGS.map((o) => [o, org])), ...ids });
  const answer = await send(request.method, request.path, { body: request.body, form: request.form });
  assertDocumentedShape(fixture, answer.status, answer.body, name);
  for (const header of Object.keys(fixture.response.headers ?? {})) assert.ok(answer.headers.get(header), `${name}: header ${header}`);
  return answer;
}

async function uploadImage(): Promise<string> {
  const init = await send('POST', '/rest/images?action=initializeUpload', { body: { initializeUploadRequest: { owner: org } } });
  const value = (init.body as { value: { uploadUrl: string; image: string } }).value;
  const put = await fetch(value.uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${accessToken}` }, body: new Uint8Array(PNG) });
  assert.equal(put.status, 201);
  return value.image;
}

/** A fake MP4 of `size` bytes: an ftyp box, then filler. */
function mp4(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from('00000018667479706d703432', 'hex').copy(bytes);
  return bytes;
}

/** Initializes (through the fixture), uploads the parts and finalizes (through the fixture) a video. */
async function uploadVideo(): Promise<string> {
  const init = await check('videos-initialize-upload.json');
  const value = (init.body as { value: { video: string; uploadToken: string; uploadInstructions: { uploadUrl: string; firstByte: number; lastByte: number }[] } }).value;
  const bytes = mp4(1055736);
  const etags: string[] = [];
  for (const part of value.uploadInstructions) {
    const put = await fetch(part.uploadUrl, { method: 'PUT', body: new Uint8Array(bytes.subarray(part.firstByte, part.lastByte + 1)) });
    etags.push(put.headers.get('etag')!);
  }
  const fixture = loadFixture(DIR, 'videos-finalize-upload.json');
  const documentedParts = (fixture.request.body as { finalizeUploadRequest: { uploadedPartIds: string[] } }).finalizeUploadRequest.uploadedPartIds;
  assert.equal(documentedParts.length, etags.length, 'the documented file size makes one part, as the example shows');
  await check('videos-finalize-upload.json', { [DOC_VIDEO]: value.video, [documentedParts[0]!]: etags[0]!, '"uploadToken":""': `"uploadToken":${JSON.stringify(value.uploadToken)}` });
  return value.video;
}

before(async () => {
  li = await startLinkedInEmulator();
  li.addApp(APP);
  const member = li.addUser({});
  org = `urn:li:organization:${li.addOrganization({ localizedName: 'Documented', admins: [member.sub] }).id}`;
  li.signIn(member.sub);
  const consent = new URL(`${li.url}/oauth/v2/authorization`);
  consent.search = new URLSearchParams({ response_type: 'code', client_id: APP.clientId, redirect_uri: REDIRECT, state: 'st', scope: 'openid profile email w_member_social w_organization_social r_organization_social rw_organization_admin' }).toString();
  const code = new URL((await fetch(consent, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
  const answer = await check('token-authorization-code.json', { '{authorization_code}': code, '{your_client_id}': APP.clientId, '{your_client_secret}': APP.clientSecret, '{your_callback_url}': REDIRECT });
  accessToken = (answer.body as { access_token: string }).access_token;
});
after(() => li.close());

describe('LinkedIn emulator: the documented shapes', () => {
  test('a partner app exchanges its refresh token', async () => {
    const partner = { clientId: 'li-doc-partner', clientSecret: 'li-doc-partner-secret', redirectUris: [REDIRECT], refreshTokens: true };
    li.addApp(partner);
    const consent = new URL(`${li.url}/oauth/v2/authorization`);
    consent.search = new URLSearchParams({ response_type: 'code', client_id: partner.clientId, redirect_uri: REDIRECT, state: 'st', scope: 'openid profile w_member_social' }).toString();
    const code = new URL((await fetch(consent, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const first = await send('POST', '/oauth/v2/accessToken', { form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: partner.clientId, client_secret: partner.clientSecret } });
    const refreshToken = (first.body as { refresh_token: string }).refresh_token;
    await check('token-refresh.json', { '{refresh_token}': refreshToken, '{your_client_id}': partner.clientId, '{your_client_secret}': partner.clientSecret });
  });

  test('images initializeUpload', async () => {
    await check('images-initialize-upload.json');
  });

  test('posts: text, image, video and article, as the Posts API page writes them', async () => {
    await check('posts-create-text.json');
    const image = await uploadImage();
    await check('posts-create-image.json', { [DOC_IMAGES[0]!]: image });
    const video = await uploadVideo();
    await check('posts-create-video.json', { [DOC_VIDEO]: video });
    const thumbnail = await uploadImage();
    await check('posts-create-article.json', { [DOC_IMAGES[1]!]: thumbnail });
  });

  test('posts found by author, the newest first: an image post, as in the example', async () => {
    const image = await uploadImage();
    const body = localized(loadFixture(DIR, 'posts-create-image.json').request.body, { [DOC_ORGS[0]!]: org, [DOC_IMAGES[0]!]: image });
    // Another text than the create example's: the same text again would be a duplicate post.
    const made = await send('POST', '/rest/posts', { body: { ...(body as object), commentary: 'The newest image post' } });
    assert.equal(made.status, 201);
    const answer = await check('posts-find-by-author.json');
    const elements = (answer.body as { elements: { id: string }[] }).elements;
    assert.equal(elements[0]!.id, made.headers.get('x-restli-id'));
    assert.ok(elements.length >= 5, 'the five posts made so far');
  });

  test('lifetime share statistics of the organization', async () => {
    await check('share-statistics-lifetime.json');
  });

  test('every fixture in description/ was exercised', () => {
    assert.deepEqual([...exercised].sort(), fixtureNames(DIR));
  });
});
