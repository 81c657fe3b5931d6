// Issue 33, "no false success": each network's judgement is one function, called by publishing and by
// the dry run, so the dry run says what publishing says. Every case of judgement.cases.ts is sent to
// `crier start --sandbox` (a real process, every network emulated) as a dry run and as a real create:
// a dry run's "ok" is a destination published on the emulator, its "not ok" a destination failed with
// the same reason; a 400 is the create's same 400, and the network's own publishing side (its adapter,
// as the worker builds it) refuses that post before any call.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST, createNetworkRegistry } from '../../src/networks/registry.ts';
import { freePort } from '../../src/db/embedded.ts';
import { PublishError } from '../../src/core/errors.ts';
import type { ContainerInput } from '../../src/core/post.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import type { PublishInput } from '../../src/networks/contract.ts';
import { runSandbox, sandboxApi, waitForSettledPost, type SandboxRun } from '../helpers/sandbox.ts';
import { makeJpeg, makeVideo } from '../helpers/media.ts';
import { judgementCases, type CaseMedia, type JudgementCase } from './judgement.cases.ts';

let dataDir: string;
let env: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
let run: SandboxRun;
let media: CaseMedia;
const stops: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-judgement-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  api = sandboxApi(env);
  run = await runSandbox({ after: (fn) => stops.push(fn) }, env);
  const image = await upload('photo.jpg', await makeJpeg('1080x1080'));
  const video = await upload('clip.mp4', await makeVideo({ seconds: 2, size: '640x360', rate: 30 }));
  const boards = await api(`/v1/social-accounts/${accountOf('pinterest').id}/boards`, run.key);
  media = { image, video, boardId: boards.body.data[0].id };
});
after(async () => {
  for (const stop of stops) await stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(filename: string, bytes: Buffer): Promise<{ url: string; filename: string }> {
  const started = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename }) });
  const put = await fetch(started.body.data.upload_url, { method: 'PUT', body: new Uint8Array(bytes) });
  assert.ok(put.ok, `PUT ${put.status}`);
  const confirmed = await api(`/v1/media/${started.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' });
  return { url: confirmed.body.data.url, filename };
}

const accountOf = (network: NetworkId) => run.accounts.find((a) => a.network === network)!;
const send = (body: object, query = '') => api(`/v1/posts${query}`, run.key, { method: 'POST', body: JSON.stringify(body) });

/** The network's publishing side as the worker builds it, unconfigured: what it refuses before calling anyone. */
const adapters = createNetworkRegistry(loadConfig({ DATABASE_URL: 'postgres://judgement@127.0.0.1:1/none', LOG_LEVEL: 'silent' }, NETWORK_LIST)).adapters();

async function publishingRefusal(network: NetworkId, body: Record<string, any>): Promise<unknown> {
  const containers: ContainerInput[] = body.content !== undefined
    ? [{ content: body.content, media: [] }]
    : body.containers.map((c: any) => ({ content: c.content ?? '', media: c.media ?? [] }));
  const unreachable = async () => { throw new Error('the judgement should refuse before any call'); };
  const input: PublishInput = {
    account: { id: 1, orgId: 1, network, username: 'judged', networkUniqueId: 'accounts/1/locations/2', serviceUrl: null, accessToken: 'token', refreshToken: null, credential: 'password' },
    containers, block: body[network], fetchMedia: unreachable, openMedia: unreachable, userFetch: unreachable as typeof fetch,
    saveTokens: unreachable, ledger: { withPool: unreachable, read: unreachable },
  };
  try {
    await adapters[network]!.prepare(input);
  } catch (error) {
    return error;
  }
  return undefined;
}

async function judged(c: JudgementCase): Promise<void> {
  const body = { ...c.body(media), accounts: [accountOf(c.network).id] };
  const dry = await send(body, '?dry_run=true');
  const created = await send(body);
  const { expect } = c;
  if (expect.verdict === 'refused') {
    assert.equal(dry.status, 400, JSON.stringify(dry.body));
    assert.deepEqual(dry.body, created.body, 'the dry run is the create\'s 400');
    const detail = dry.body.details.find((d: any) => d.field === expect.field);
    assert.ok(detail, `expected ${expect.field} in ${JSON.stringify(dry.body.details)}`);
    const refusal = await publishingRefusal(c.network, body);
    assert.ok(refusal instanceof PublishError && refusal.kind === 'permanent', `publishing refuses it too: ${String(refusal)}`);
    // A refusal from the judgement itself is the create's detail, word for word.
    if (expect.field === 'socialAccounts[0]') assert.equal(detail.message, refusal.message);
    if (expect.reason) assert.equal(refusal.message, expect.reason);
    return;
  }
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const [destination] = dry.body.destinations;
  const post = await waitForSettledPost(api, run.key, created.body.post.id, 60);
  const [target] = post.socialAccounts;
  if (expect.verdict === 'published') {
    assert.deepEqual([destination.ok, destination.reasons], [true, []]);
    assert.equal(target.status, 'published', target.error);
  } else {
    assert.deepEqual([destination.ok, destination.reasons], [false, [expect.reason]]);
    assert.deepEqual([target.status, target.error], ['failed', expect.reason], 'publishing fails with the dry run\'s reason');
  }
}

describe('the dry run says what publishing says, network by network', () => {
  for (const c of judgementCases) test(c.name, () => judged(c));
});

describe('a field that does nothing for the post is ignored with a warning', () => {
  test('pinterest.cover_image_url on an image pin: dropped with a warning by the dry run and the create, and the pin publishes', async () => {
    const body = {
      accounts: [accountOf('pinterest').id],
      containers: [{ content: 'An image pin', media: [media.image] }],
      pinterest: { board_id: media.boardId, cover_image_url: 'https://cdn.example.com/cover.jpg' },
    };
    const warning = '"pinterest.cover_image_url" was ignored: a cover is for a video pin (exactly one video in the first container), and this pin has none';
    const dry = await send(body, '?dry_run=true');
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.deepEqual(dry.body.warnings, [warning]);
    const created = await send(body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.warnings, [warning]);
    const post = await waitForSettledPost(api, run.key, created.body.post.id, 30);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const stored = await api(`/v1/posts/${created.body.post.id}`, run.key);
    assert.equal(JSON.stringify(stored.body.post).includes('cover_image_url'), false, 'not stored');
  });
});
