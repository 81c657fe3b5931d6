// `crier verify <network>` against the sandbox, as an operator would run it against the real networks:
// --dry for every network plans what each takes and publishes nothing (the emulators received no
// write); a live run on X and Bluesky publishes a text, an image and a thread, reads them back,
// deletes them from the network and Crier's records, and says so step by step; so does one on
// Telegram, Discord and Mastodon, which have no replies or figures to read back.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runCrier } from '../helpers/process.ts';
import { emulatorCalls, runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';
import { makeVideo } from '../helpers/media.ts';

let dataDir: string;
let env: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
/** One sandbox for the file: the dry run comes first and writes nothing, each live run cleans up after itself. */
let run: SandboxRun;
/** What runSandbox registers for the end: run when this file's tests are done, not when `before` is. */
const cleanups: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-verify-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  api = sandboxApi(env);
  run = await runSandbox({ after: (fn) => cleanups.push(fn) }, env);
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

const ALL = ['x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube', 'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit', 'telegram', 'discord', 'mastodon'];

async function verify(run: SandboxRun, args: string[]) {
  const done = await runCrier(['verify', ...args, '--json'], { CRIER_URL: `http://127.0.0.1:${run.port}`, CRIER_API_KEY: run.key });
  return { code: done.code, stderr: done.stderr, body: done.stdout ? JSON.parse(done.stdout) : undefined };
}

test('--dry on every network: a plan from the network\'s own judgement, and not one write reaches an emulator', async () => {
  const boards = await api(`/v1/social-accounts/${run.accounts.find((a) => a.network === 'pinterest')!.id}/boards`, run.key);
  const blocks: Record<string, object> = {
    pinterest: { board_id: boards.body.data[0].id },
    reddit: { subreddit: 'crier_sandbox', title: 'Crier verify' },
  };
  const video = path.join(dataDir, 'clip.mp4');
  await writeFile(video, await makeVideo({ seconds: 4, size: '720x1280', rate: 30, audio: true }));
  const before = new Map<string, number>();
  for (const network of ALL) before.set(network, (await emulatorCalls(run, network)).length);
  for (const network of ALL) {
    const { code, body, stderr } = await verify(run, [network, '--dry', '--video', video, ...(blocks[network] ? ['--block', JSON.stringify(blocks[network])] : [])]);
    assert.equal(code, 0, `${network}: ${stderr} ${JSON.stringify(body)}`);
    assert.equal(body.network, network);
    assert.match(body.steps[0].detail, /a sandbox account, on an emulator, not the real network/);
    const planned = body.steps.filter((s: any) => s.verdict === 'planned').map((s: any) => s.step);
    assert.ok(planned.some((s: string) => s.startsWith('publish ')), `${network} plans a post: ${JSON.stringify(body.steps)}`);
    assert.ok(planned.includes('delete'), network);
    assert.equal(body.steps.filter((s: any) => s.verdict === 'failed').length, 0, JSON.stringify(body.steps));
  }
  // What needs media says so, and the text post is skipped with the network's own reason.
  const youtube = await verify(run, ['youtube', '--dry']);
  assert.equal(youtube.code, 4, 'YouTube takes nothing without a video');
  assert.deepEqual(youtube.body.steps.at(-1), { step: 'plan', verdict: 'failed', detail: 'the network takes none of the posts a live check makes: nothing can be checked (give --image or --video with a file it takes)' });
  const instagram = (await verify(run, ['instagram', '--dry'])).body.steps;
  assert.match(instagram.find((s: any) => s.step === 'judge text').detail, /^not taken: .*Instagram needs an image or a video/);
  assert.deepEqual(instagram.filter((s: any) => s.verdict === 'planned').map((s: any) => s.step), ['publish image', 'publish thread', 'read back', 'delete']);
  for (const network of ALL) {
    const writes = (await emulatorCalls(run, network)).slice(before.get(network)).filter((c) => c.method !== 'GET');
    assert.deepEqual(writes.map((c) => `${c.method} ${c.path}`), [], `${network}: a dry run wrote nothing`);
  }
  const posts = await api('/v1/posts?limit=100', run.key);
  assert.equal(posts.body.posts.filter((p: any) => p.containers[0]?.content.startsWith('Crier verify')).length, 0, 'no post stored');
});

test('a live run on X and Bluesky: each post published, read back, deleted from the network, and Crier\'s records removed', async () => {
  for (const network of ['x', 'bluesky']) {
    const { code, body, stderr } = await verify(run, [network]);
    assert.equal(code, 0, `${network}: ${stderr} ${JSON.stringify(body)}`);
    const verdicts = body.steps.map((s: any) => [s.step, s.verdict]);
    assert.deepEqual(verdicts, [
      ['account', 'ok'], ['judge text', 'ok'], ['judge image', 'ok'], ['judge video', 'skipped'], ['judge thread', 'ok'],
      ['publish text', 'ok'], ['publish image', 'ok'], ['publish thread', 'ok'], ['read replies', 'ok'], ['read figures', 'ok'],
      ['delete', 'ok'], ['clean up', 'ok'], ['delete', 'ok'], ['clean up', 'ok'], ['delete', 'ok'], ['clean up', 'ok'],
    ], `${network}: ${JSON.stringify(body.steps)}`);
  }
  const x = await emulatorCalls(run, 'x');
  assert.equal(x.filter((c) => c.method === 'POST' && c.path === '/2/tweets' && c.status === 201).length, 4, 'a text, an image, a thread of two');
  assert.equal(x.filter((c) => c.method === 'DELETE' && c.path.startsWith('/2/tweets/') && c.status === 200).length, 4, 'every tweet deleted, the reply too');
  const bsky = await emulatorCalls(run, 'bluesky');
  assert.equal(bsky.filter((c) => c.path === '/xrpc/com.atproto.repo.uploadBlob' && c.status === 200).length, 1, 'the generated image uploaded');
  const posts = await api('/v1/posts?limit=100', run.key);
  assert.equal(posts.body.posts.filter((p: any) => p.containers[0]?.content.startsWith('Crier verify')).length, 0, "Crier's records removed");
});

test('a live run on Telegram, Discord and Mastodon: each post published and deleted, no step failed, Crier\'s records removed', async () => {
  for (const network of ['telegram', 'discord', 'mastodon']) {
    const { code, body, stderr } = await verify(run, [network]);
    assert.equal(code, 0, `${network}: ${stderr} ${JSON.stringify(body)}`);
    const verdicts = new Map<string, string[]>();
    for (const s of body.steps) verdicts.set(s.step, [...(verdicts.get(s.step) ?? []), s.verdict]);
    assert.deepEqual(body.steps.filter((s: any) => s.verdict === 'failed'), [], network);
    for (const step of ['publish text', 'publish image', 'publish thread']) assert.deepEqual(verdicts.get(step), ['ok'], `${network} ${step}: ${JSON.stringify(body.steps)}`);
    assert.deepEqual(verdicts.get('delete'), ['ok', 'ok', 'ok'], `${network}: ${JSON.stringify(body.steps)}`);
  }
  const posts = await api('/v1/posts?limit=100', run.key);
  assert.equal(posts.body.posts.filter((p: any) => p.containers[0]?.content.startsWith('Crier verify')).length, 0, "Crier's records removed");
});

test('a network without a connected account, or without its required block, is refused before anything is posted', async () => {
  const pinterest = await verify(run, ['pinterest']);
  assert.equal(pinterest.code, 1);
  assert.match(pinterest.stderr, /pinterest needs its platform block for these posts: pinterest\.board_id: .*--block '\{"board_id":"…"\}'/);
  const unknown = await verify(run, ['x', '--account', 'nobody_here']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no x account "nobody_here" is connected/);
});
