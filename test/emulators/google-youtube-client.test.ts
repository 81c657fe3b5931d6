// The Google emulator's YouTube paths against Google's own Node client, `@googleapis/youtube`, used
// unchanged (pointed at the emulator with its documented `rootUrl` option; a media method takes it per
// call, as the client builds its upload URL from the call's options), and the query parameters of
// those paths checked against the discovery document (emulators/google/youtube/description/):
// repeated parameters are a union, unknown ones are refused, required ones required, enums and ranges
// checked.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { youtube, type youtube_v3 } from '@googleapis/youtube';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';

const APP = { clientId: '77-client.apps.googleusercontent.com', clientSecret: 'GOCSPX-client', redirectUris: ['http://localhost/cb'] };
const SCOPES = ['youtube.upload', 'youtube.force-ssl'].map((s) => `https://www.googleapis.com/auth/${s}`);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]);

let google: GoogleEmulator;
let client: youtube_v3.Youtube;
let token: string;
let rootUrl: string;
let channelId: string;

before(async () => {
  google = await startGoogleEmulator();
  google.addApp(APP);
  const user = google.addUser({ name: 'clientuser' });
  token = google.oauth.issue(user.id, APP.clientId, SCOPES).accessToken;
  channelId = user.channel!.id;
  rootUrl = `${google.url}/`;
  client = youtube({ version: 'v3', rootUrl, headers: { authorization: `Bearer ${token}` } });
});
after(() => google.close());

/** A video the channel has, made without an upload (so a test does not lean on videos.insert). */
const seeded = (title = 'Seeded') => google.youtube.addVideo(channelId, { title });

/** A small video uploaded the way the client does it (one multipart/related request). */
async function upload(bytes = Buffer.alloc(3000, 5), privacyStatus = 'unlisted') {
  return client.videos.insert(
    { part: ['snippet', 'status'], requestBody: { snippet: { title: 'From the client', description: 'bytes' }, status: { privacyStatus } }, media: { mimeType: 'video/mp4', body: Readable.from([bytes]) } },
    { rootUrl },
  );
}

async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(google.url + path, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
  return { status: res.status, body: (await res.json()) as any };
}

describe('@googleapis/youtube against the emulator', () => {
  test('channels.list mine with several parts answers every part asked (part=…&part=…)', async () => {
    const { status, data } = await client.channels.list({ mine: true, part: ['snippet', 'contentDetails', 'statistics'] });
    assert.equal(status, 200);
    const [channel] = data.items!;
    assert.equal(channel!.snippet!.title, 'clientuser');
    assert.match(channel!.contentDetails!.relatedPlaylists!.uploads!, /^UU/);
    assert.equal(channel!.statistics!.hiddenSubscriberCount, false);
  });

  test('videos.insert: a small upload, sent as uploadType=multipart, becomes a video with those bytes', async () => {
    const bytes = Buffer.alloc(3000, 9);
    const { status, data } = await upload(bytes);
    assert.equal(status, 200);
    assert.equal(data.snippet!.title, 'From the client');
    assert.equal(data.status!.privacyStatus, 'unlisted');
    const video = google.youtube.videos().find((v) => v.id === data.id)!;
    assert.equal(video.bytes, bytes.length);
    assert.equal(video.sha256, createHash('sha256').update(bytes).digest('hex'));
    const call = google.youtube.calls().findLast((c) => c.path === '/upload/youtube/v3/videos')!;
    assert.deepEqual(call.query, { part: 'snippet,status', uploadType: 'multipart' });
  });

  test('videos.list with several parts answers each of them', async () => {
    const id = seeded('Listed');
    const { data } = await client.videos.list({ id: [id], part: ['snippet', 'status', 'processingDetails'] });
    const [video] = data.items!;
    assert.equal(video!.snippet!.title, 'Listed');
    assert.ok(video!.status!.uploadStatus);
    assert.ok(video!.processingDetails!.processingStatus);
  });

  test('commentThreads.insert, then commentThreads.list with part snippet and replies embeds the replies', async () => {
    const inserted = { id: seeded('Commented') };
    const { status, data: thread } = await client.commentThreads.insert({
      part: ['snippet'], requestBody: { snippet: { videoId: inserted.id, topLevelComment: { snippet: { textOriginal: 'first!' } } } },
    });
    assert.equal(status, 200);
    google.youtube.addComment(inserted.id!, { text: 'a reply', parentId: thread.id! });
    const { data } = await client.commentThreads.list({ part: ['snippet', 'replies'], videoId: inserted.id!, order: 'time', textFormat: 'plainText' });
    assert.equal(data.items!.length, 1);
    assert.equal(data.items![0]!.snippet!.topLevelComment!.snippet!.textOriginal, 'first!');
    assert.deepEqual(data.items![0]!.replies!.comments!.map((c) => c.snippet!.textDisplay), ['a reply']);
  });

  test('thumbnails.set: the image as uploadType=media is taken', async () => {
    const inserted = { id: seeded('Thumbnailed') };
    const { status, data } = await client.thumbnails.set({ videoId: inserted.id!, media: { mimeType: 'image/png', body: Readable.from([PNG]) } }, { rootUrl });
    assert.equal(status, 200);
    assert.equal(data.kind, 'youtube#thumbnailSetResponse');
    const [set] = google.youtube.thumbnailSets(inserted.id!);
    assert.equal(set!.uploadType, 'media');
    assert.equal(set!.bytes, PNG.length);
  });
});

describe('YouTube query parameters, as the discovery document declares them', () => {
  test('a repeated parameter is the union of its values, as the comma-separated form', async () => {
    const repeated = await raw('/youtube/v3/channels?mine=true&part=snippet&part=statistics');
    const joined = await raw('/youtube/v3/channels?mine=true&part=snippet,statistics');
    assert.equal(repeated.status, 200);
    assert.deepEqual(Object.keys(repeated.body.items[0]).sort(), Object.keys(joined.body.items[0]).sort());
    assert.ok(repeated.body.items[0].statistics);
  });

  test('a parameter the method does not declare is refused with 400 unexpectedParameter', async () => {
    const { status, body } = await raw('/youtube/v3/channels?mine=true&part=snippet&colour=blue');
    assert.equal(status, 400);
    assert.deepEqual(body, {
      error: {
        code: 400,
        message: 'The request specifies an unexpected parameter.',
        errors: [{ message: 'The request specifies an unexpected parameter.', domain: 'youtube.parameter', reason: 'unexpectedParameter', location: 'colour', locationType: 'parameter' }],
        status: 'INVALID_ARGUMENT',
      },
    });
  });

  test('a list without one of its filters: 400 missingRequiredParameter located at `parameters.`, as observed', async () => {
    const { status, body } = await raw('/youtube/v3/videos?part=snippet');
    assert.equal(status, 400);
    assert.deepEqual(body.error.errors, [{
      message: 'No filter selected. Expected one of: myRating, id, chart', domain: 'youtube.parameter', reason: 'missingRequiredParameter', location: 'parameters.', locationType: 'other',
    }]);
  });

  test('standard parameters (fields, prettyPrint, quotaUser…) are taken on every method', async () => {
    const { status } = await raw('/youtube/v3/channels?mine=true&part=snippet&prettyPrint=false&quotaUser=u1&alt=json');
    assert.equal(status, 200);
  });

  test('a missing required parameter is refused with 400 required', async () => {
    const { status, body } = await raw('/youtube/v3/comments?parentId=abc');
    assert.equal(status, 400);
    assert.equal(body.error.errors[0].reason, 'required');
    assert.equal(body.error.errors[0].location, 'part');
  });

  test('an enum parameter outside its values, or an integer outside its range, is refused with 400 invalidParameter', async () => {
    const inserted = { id: seeded() };
    const order = await raw(`/youtube/v3/commentThreads?part=snippet&videoId=${inserted.id}&order=newest`);
    assert.equal(order.status, 400);
    assert.deepEqual(order.body.error.errors[0], {
      message: "Invalid value 'newest'. Values must match the following regular expression: '(orderUnspecified|time|relevance)'",
      domain: 'global', reason: 'invalidParameter', location: 'order', locationType: 'parameter',
    });
    const size = await raw(`/youtube/v3/commentThreads?part=snippet&videoId=${inserted.id}&maxResults=101`);
    assert.equal(size.status, 400);
    assert.equal(size.body.error.errors[0].location, 'maxResults');
    const flag = await raw('/youtube/v3/channels?part=snippet&mine=yes');
    assert.equal(flag.status, 400);
    assert.equal(flag.body.error.errors[0].reason, 'invalidParameter');
  });

  test('the upload host checks them too; a session URI\'s upload_id is Google\'s own and taken', async () => {
    const refused = await raw('/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&notify=false', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-upload-content-length': '10' }, body: JSON.stringify({ snippet: { title: 't' } }),
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.errors[0].location, 'notify');
    const start = await fetch(`${google.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet&part=status&notifySubscribers=false`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-upload-content-length': '10' }, body: JSON.stringify({ snippet: { title: 't' } }),
    });
    assert.equal(start.status, 200);
    const put = await fetch(start.headers.get('location')!, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(10, 1) });
    assert.equal(put.status, 201);
  });
});
