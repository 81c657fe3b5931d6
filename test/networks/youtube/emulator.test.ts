// The YouTube side of the Google emulator over plain HTTP, for what the publishing tests do not reach
// through Crier: the 256 KiB rule, a status query before any byte, a chunk beyond the session's
// offset, a chunk sent again, and the current quota model's bucket of uploads.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/google/server.ts';
import { YOUTUBE_SCOPES } from '../../../src/networks/youtube/oauth.ts';
import { APP, CHUNK } from './setup.ts';

let google: GoogleEmulator;
let token: string;

before(async () => {
  google = await startGoogleEmulator();
  google.addApp(APP);
  const user = google.addUser({ name: 'Emulated' });
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

  test('the current quota model counts videos.insert in a bucket of its own', async () => {
    google.youtube.setQuota({ model: 'current', uploadCalls: 1 });
    assert.equal((await open(CHUNK, 'first of the day')).status, 200);
    const refused = await open(CHUNK, 'second of the day');
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as any).error.errors[0].reason, 'quotaExceeded');
    const list = await fetch(`${google.url}/youtube/v3/videos?part=status&id=none`, { headers: auth() });
    assert.equal(list.status, 200, 'other calls still have their 10,000 units');
  });
});
