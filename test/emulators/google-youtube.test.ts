// The YouTube side of the Google emulator over plain HTTP, for what the publishing tests do not reach
// through Crier: the 256 KiB rule, a status query before any byte, a chunk beyond the session's
// offset, a chunk sent again, Google's two quota buckets (determine_quota_cost since 2026-06-01),
// and thumbnails.set's upload protocol and size limit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/google/server.ts';
import { YOUTUBE_SCOPES } from '../../src/networks/youtube/oauth.ts';

const APP = { clientId: '555-crier.apps.googleusercontent.com', clientSecret: 'GOCSPX-crier', redirectUris: ['http://localhost/cb'] };
/** Google's granularity for resumable chunks: every chunk but the last is a multiple of 256 KiB. */
const CHUNK = 256 * 1024;

let google: GoogleEmulator;
let token: string;
let channelId: string;

before(async () => {
  google = await startGoogleEmulator();
  google.addApp(APP);
  const user = google.addUser({ name: 'Emulated' });
  channelId = user.channel!.id;
  token = google.oauth.issue(user.id, APP.clientId, [...YOUTUBE_SCOPES]).accessToken;
});
after(async () => google.close());

const auth = () => ({ authorization: `Bearer ${token}` });

async function open(total: number, title = 'A video'): Promise<Response> {
  return fetch(`${google.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(total), 'x-upload-content-type': 'video/mp4' },
    body: JSON.stringify({ snippet: { title }, status: { privacyStatus: 'private' } }),
  });
}

const put = (session: string, range: string, body?: Buffer) => fetch(session, { method: 'PUT', headers: { ...auth(), 'content-range': range }, ...(body ? { body: new Uint8Array(body) } : {}) });

describe('the YouTube emulator', () => {
  test('a session: nothing yet is a 308 without Range; a chunk off the 256 KiB grid or past the offset is refused; a chunk sent again is taken once', async () => {
    const bytes = Buffer.alloc(2 * CHUNK + 100, 7);
    const session = (await open(bytes.length)).headers.get('location')!;
    const nothing = await put(session, `bytes */${bytes.length}`);
    assert.deepEqual([nothing.status, nothing.headers.get('range')], [308, null]);
    const offGrid = await put(session, `bytes 0-999/${bytes.length}`, bytes.subarray(0, 1000));
    assert.equal(offGrid.status, 400);
    assert.match(((await offGrid.json()) as any).error.message, /required to be equal or greater than 262144/);
    const ahead = await put(session, `bytes ${CHUNK}-${2 * CHUNK - 1}/${bytes.length}`, bytes.subarray(CHUNK, 2 * CHUNK));
    assert.equal(ahead.status, 400);
    for (let i = 0; i < 2; i++) {
      const first = await put(session, `bytes 0-${CHUNK - 1}/${bytes.length}`, bytes.subarray(0, CHUNK));
      assert.deepEqual([first.status, first.headers.get('range')], [308, `bytes=0-${CHUNK - 1}`]);
    }
    const rest = await put(session, `bytes ${CHUNK}-${bytes.length - 1}/${bytes.length}`, bytes.subarray(CHUNK));
    assert.equal(rest.status, 201);
    const video = (await rest.json()) as any;
    assert.equal(video.status.uploadStatus, 'uploaded');
    const stored = google.youtube.videos().find((v) => v.id === video.id)!;
    assert.equal(stored.sha256, createHash('sha256').update(bytes).digest('hex'));
    const done = await put(session, `bytes */${bytes.length}`);
    assert.deepEqual([done.status, ((await done.json()) as any).id], [200, video.id]);
  });

  test('videos.insert is counted in a bucket of its own, one a call: the units are left to the other calls', async () => {
    const units = google.youtube.quotaUsed(APP.clientId);
    const uploads = google.youtube.quotaUsed(APP.clientId, 'uploads');
    assert.equal((await open(CHUNK, 'one more of the day')).status, 200);
    assert.deepEqual([google.youtube.quotaUsed(APP.clientId), google.youtube.quotaUsed(APP.clientId, 'uploads')], [units, uploads + 1]);
    google.youtube.setQuota({ uploadCalls: uploads + 1 });
    const refused = await open(CHUNK, 'past the day\'s calls');
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as any).error.errors[0].reason, 'quotaExceeded');
    const list = await fetch(`${google.url}/youtube/v3/videos?part=status&id=none`, { headers: auth() });
    assert.equal(list.status, 200, 'other calls still have their 10,000 units');
    assert.equal(google.youtube.quotaUsed(APP.clientId), units + 1);
  });

  test('past the day\'s units the other calls are refused, and an upload is still taken', async () => {
    google.youtube.setQuota({ uploadCalls: 100, dailyUnits: google.youtube.quotaUsed(APP.clientId) });
    const list = await fetch(`${google.url}/youtube/v3/videos?part=status&id=none`, { headers: auth() });
    assert.equal(list.status, 403);
    assert.equal(((await list.json()) as any).error.errors[0].reason, 'quotaExceeded');
    assert.equal((await open(CHUNK, 'an upload on a day without units')).status, 200);
    google.youtube.setQuota({ dailyUnits: 10_000 });
  });

  test('thumbnails.set: uploadType=media is recorded, one without is taken and recorded as null, another protocol is refused; 50 MB is the limit', async () => {
    const videoId = google.youtube.addVideo(channelId, { title: 'covered' });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const set = (query: string, image: Buffer) => fetch(`${google.url}/upload/youtube/v3/thumbnails/set?${query}`, { method: 'POST', headers: { ...auth(), 'content-type': 'image/png' }, body: new Uint8Array(image) });
    assert.equal((await set(`uploadType=media&videoId=${videoId}`, png)).status, 200);
    assert.equal((await set(`videoId=${videoId}`, png)).status, 200);
    const resumable = await set(`uploadType=resumable&videoId=${videoId}`, png);
    assert.equal(resumable.status, 400);
    assert.match(((await resumable.json()) as any).error.message, /simple upload only \(uploadType=media\)/);
    // 3 MB: past the 2 MB of the old reference, within the 50 MB of the 2026-09-14 revision.
    const large = Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)]);
    assert.equal((await set(`uploadType=media&videoId=${videoId}`, large)).status, 200);
    assert.deepEqual(google.youtube.thumbnailSets(videoId).map((t) => [t.status, t.uploadType, t.bytes]), [[200, 'media', png.length], [200, null, png.length], [200, 'media', large.length]]);
  });
});
