// `crier start --sandbox` (npm run demo) as the README walks a newcomer through it, twice (a second
// run keeps the database and starts the emulators empty): the guided thread, a comment on it, an
// image cross-post, each outcome true and each destination with a network post of its own; the
// signed webhook in the built-in inbox; a kill -9 and a restart.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../src/db/embedded.ts';
import { runCrier } from '../helpers/process.ts';
import { runSandbox as runSandboxWith, sandboxApi, waitForSettledPost } from '../helpers/sandbox.ts';
import { makeJpeg } from '../helpers/media.ts';

const readme = await readFile(path.join(import.meta.dirname, '../../README.md'), 'utf8');

let dataDir: string;
let env: Record<string, string | undefined>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-sandbox-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
});
after(() => rm(dataDir, { recursive: true, force: true }));

const runSandbox = (t: { after(fn: () => unknown): void }) => runSandboxWith(t, env);
const api = (pathname: string, key: string, init: RequestInit = {}) => sandboxApi(env.PORT)(pathname, key, init);

/** What the first run printed and published, for the test of what a later run keeps. */
const firstRun = { key: '', postId: '' };

const published = (post: any) => post.socialAccounts.every((a: any) => a.status !== 'pending' && a.status !== 'publishing');
const waitForPost = (key: string, id: string, seconds?: number) => waitForSettledPost(sandboxApi(env.PORT), key, id, seconds);

/**
 * The README's "first post" steps, in order, as written: the thread command the guide prints, its
 * status, someone commenting on it and the replies read, then an image uploaded and cross-posted to
 * every network that takes one. Every outcome asserted is what the network emulators hold.
 */
async function walkThrough(run: Awaited<ReturnType<typeof runSandbox>>): Promise<string> {
  const { key, crier } = run;
  // The command the guide prints: a thread to every sandbox account that takes text, all published.
  const printed = /Publish a thread to those that take a text post:\n.*\n\s+-d '(\{.*\})'/.exec(crier.output())?.[1];
  assert.ok(printed, 'the guide prints the command');
  assert.deepEqual(JSON.parse(printed!).accounts, [
    'sandbox_x', 'sandbox_threads', 'sandbox_linkedin', 'sandbox-company', 'sandboxpage', 'sandbox.test', 'sandbox_bakery', 'sandbox_redditor',
    'crier_sandbox', 'sandbox_discord', 'sandbox@sandbox.mastodon.test',
  ]);
  assert.deepEqual(JSON.parse(printed!).reddit, { subreddit: 'crier_sandbox', title: 'Hello from Crier' }, 'with the block Reddit needs');
  assert.match(crier.output(), /@sandbox_ig, @sandbox_youtube, @sandbox_tiktok, @sandbox_pinterest, @sandbox_vimeo: Instagram, YouTube, TikTok, Pinterest, Vimeo publish only with an image or a video/);
  const guided = await api('/v1/posts', key, { method: 'POST', body: printed! });
  assert.equal(guided.status, 200, JSON.stringify(guided.body));
  const all = await waitForPost(key, guided.body.post.id, 30);
  assert.deepEqual(all.socialAccounts.map((a: any) => [a.network, a.status, a.error ?? null]), [
    ['x', 'published', null], ['threads', 'published', null], ['linkedin', 'published', null], ['linkedin', 'published', null],
    ['facebook', 'published', null], ['bluesky', 'published', null], ['google_business', 'published', 'Google Business Profile posts take no replies: container 2 was not published'],
    ['reddit', 'published', null], ['telegram', 'published', null], ['discord', 'published', null], ['mastodon', 'published', null],
  ]);
  // A Mastodon status lives on its instance, and the sandbox's instance is the emulator, on loopback.
  for (const destination of all.socialAccounts) {
    assert.match(destination.platformPostUrl, destination.network === 'mastodon' ? /^http:\/\/127\.0\.0\.1:\d+\/@/ : /^https:\/\//, destination.network);
  }
  const ids = all.socialAccounts.map((a: any) => a.platformPostId);
  assert.equal(new Set(ids).size, ids.length, 'each destination its own network post');

  // The guide's "Try replies": someone comments on the thread, and the replies read shows the comment.
  const tryReplies = /Try replies: .*\n\s+curl -s \S+\/v1\/sandbox\/posts\/<post id>\/comments .*\n\s+-d '(\{.*\})'\n\s+curl -s "\S+\/v1\/posts\/<post id>(\/replies\?\S+)"/.exec(crier.output());
  assert.ok(tryReplies, 'the guide prints both commands');
  const commented = await api(`/v1/sandbox/posts/${guided.body.post.id}/comments`, key, { method: 'POST', body: tryReplies![1] });
  assert.equal(commented.status, 201, JSON.stringify(commented.body));
  const replies = await api(`/v1/posts/${guided.body.post.id}${tryReplies![2]}`, key);
  assert.equal(replies.status, 200, JSON.stringify(replies.body));
  assert.deepEqual(replies.body.data.map((r: any) => [r.id, r.author_username]), [[commented.body.comment_id, 'a_fan']]);
  assert.match(replies.body.data[0].text, /Love this!$/);

  // The README's image step: uploaded through the media API, then cross-posted as the README's command
  // does, to every network that takes an image (its own text: a network refuses a repeated text).
  const crossPost = /(\{"accounts":\[[^\n]*"content":"A photo from Crier"[^\n]*\})'/.exec(readme)?.[1];
  assert.ok(crossPost, "the README's cross-post command");
  const upload = await api('/v1/media/upload', key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const put = await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('1080x1080')) });
  assert.ok(put.ok, `PUT ${put.status}`);
  const confirmed = await api(`/v1/media/${upload.body.data.id}/confirm`, key, { method: 'POST', body: '{}' });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  const pinterestAccount = run.accounts.find((a) => a.network === 'pinterest')!;
  const boards = await api(`/v1/social-accounts/${pinterestAccount.id}/boards`, key);
  assert.deepEqual(boards.body.data.map((b: any) => [b.name, b.privacy]), [['Sandbox ideas', 'PUBLIC'], ['Sandbox drafts', 'SECRET']]);
  const body = crossPost!.replace('<url confirm answered>', confirmed.body.data.url).replace('<a board id>', boards.body.data[0].id);
  const withImage = await api('/v1/posts', key, { method: 'POST', body });
  assert.equal(withImage.status, 200, JSON.stringify(withImage.body));
  // TikTok's photo post waits for the network to take the image in: it settles last.
  const image = await waitForPost(key, withImage.body.post.id, 60);
  assert.deepEqual(image.socialAccounts.map((a: any) => [a.network, a.status]), [
    ['x', 'published'], ['threads', 'published'], ['linkedin', 'published'], ['facebook', 'published'], ['instagram', 'published'],
    ['bluesky', 'published'], ['tiktok', 'published'], ['google_business', 'published'], ['pinterest', 'published'],
  ]);
  // TikTok's photos wait in the creator's inbox, which its note says; every other destination is plain.
  assert.deepEqual(image.socialAccounts.filter((a: any) => a.error).map((a: any) => a.network), ['tiktok']);
  assert.match(image.socialAccounts.find((a: any) => a.network === 'tiktok').error, /^the photos await the creator in their TikTok inbox/);
  const instagram = image.socialAccounts.find((a: any) => a.network === 'instagram');
  assert.match(instagram.platformPostUrl, /^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
  const pin = image.socialAccounts.find((a: any) => a.network === 'pinterest');
  assert.match(pin.platformPostUrl, /^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/);
  const imageIds = image.socialAccounts.map((a: any) => a.platformPostId);
  assert.ok(imageIds.every((id: string) => !ids.includes(id)), 'no destination shows the thread\'s posts');
  return guided.body.post.id;
}

test('the README walk-through: the guided thread, a comment, and an image cross-post are published, each with its own network post', async (t) => {
  const run = await runSandbox(t);
  assert.deepEqual(run.accounts.map((a) => [a.network, a.username]), [
    ['x', 'sandbox_x'], ['threads', 'sandbox_threads'], ['linkedin', 'sandbox_linkedin'], ['linkedin', 'sandbox-company'], ['facebook', 'sandboxpage'],
    ['instagram', 'sandbox_ig'], ['bluesky', 'sandbox.test'], ['youtube', 'sandbox_youtube'], ['google_business', 'sandbox_bakery'], ['tiktok', 'sandbox_tiktok'], ['pinterest', 'sandbox_pinterest'], ['vimeo', 'sandbox_vimeo'], ['reddit', 'sandbox_redditor'],
    ['telegram', 'crier_sandbox'], ['discord', 'sandbox_discord'], ['mastodon', 'sandbox@sandbox.mastodon.test'],
  ]);
  const postId = await walkThrough(run);
  const listed = await api('/v1/social-accounts', run.key);
  assert.ok(listed.body.data.every((a: any) => a.sandbox === true), 'sandbox accounts say so');
  Object.assign(firstRun, { key: run.key, postId });
});

test('a second run keeps the database (posts, account ids), revokes the previous run\'s key, says so, and the walk-through again shows only true outcomes', async (t) => {
  const run = await runSandbox(t);
  const { crier, key, accounts } = run;
  assert.notEqual(key, firstRun.key);
  assert.equal((await api('/v1/social-accounts', firstRun.key)).status, 401, "the previous run's key is revoked");
  assert.equal((await api('/v1/social-accounts', 'crier_not_a_key')).status, 401);
  const listed = await api('/v1/social-accounts', key);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.data.map((a: any) => a.id), accounts.map((a) => a.id));
  const kept = await api(`/v1/posts/${firstRun.postId}`, key);
  assert.equal(kept.status, 200, 'the first run\'s post is still there');
  assert.ok(kept.body.post.socialAccounts.every((a: any) => a.status === 'published'));
  const guide = crier.output().replace(/\s+/g, ' ');
  assert.match(guide, /the previous run's key is revoked\. Crier's database persists between runs: posts, accounts, webhooks and the admin key of the first start\. The emulators start empty on every run\./);
  await walkThrough(run);
});

test('the sandbox offers the connect flow of every OAuth network, pick-a-page sessions included, and Mastodon\'s on its instance', async (t) => {
  const { crier, key } = await runSandbox(t);
  const networks = crier.output().match(/Connect an account \(([^)]+)\)/)![1]!.split(', ');
  assert.deepEqual([...networks].sort(), ['facebook', 'google_business', 'instagram', 'linkedin', 'pinterest', 'reddit', 'threads', 'tiktok', 'vimeo', 'x', 'youtube']);
  for (const network of networks) {
    const auth = await api(`/v1/social-networks/${network}/auth-url`, key, { method: 'POST', body: '{}' });
    assert.equal(auth.status, 200, `${network}: ${JSON.stringify(auth.body)}`);
    const consent = await fetch(auth.body.data.auth_url, { redirect: 'manual' });
    assert.equal(consent.status, 302, `${network} consent: ${await consent.clone().text()}`);
    const back = new URL(consent.headers.get('location')!);
    assert.equal(back.pathname, `/oauth/callback/${network}`);
    // No redirect_uri was given: Crier answers the outcome as JSON.
    const callback = await fetch(`http://127.0.0.1:${env.PORT}${back.pathname}${back.search}`);
    const outcome = (await callback.json()) as any;
    assert.equal(callback.status, 200, `${network} callback: ${JSON.stringify(outcome)}`);
    let connected: any[];
    if (outcome.session) {
      assert.ok(['facebook', 'instagram', 'linkedin', 'google_business'].includes(network), `${network} should not need a pick`);
      const pending = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}`).then((r) => r.json() as any);
      assert.equal(pending.data.network, network);
      const finalize = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}/finalize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ selectedPageIds: [pending.data.availablePages[0].id] }),
      }).then((r) => r.json() as any);
      connected = finalize.connectedAccounts;
    } else {
      connected = [outcome.data];
    }
    assert.equal(connected.length, 1, network);
    assert.deepEqual([connected[0].network, connected[0].sandbox, connected[0].isActive], [network, true, 1], network);
  }
  // Mastodon connects with a token (its sandbox account is seeded so) or through OAuth on the instance
  // the user names: here by the domain its handle shows, sandbox@sandbox.mastodon.test. The same account.
  const seeded = (await api('/v1/social-accounts?network=mastodon', key)).body.data;
  assert.deepEqual(seeded.map((a: any) => a.username), ['sandbox@sandbox.mastodon.test']);
  const auth = await api('/v1/social-networks/mastodon/auth-url', key, { method: 'POST', body: JSON.stringify({ instance_url: 'sandbox.mastodon.test' }) });
  assert.equal(auth.status, 200, JSON.stringify(auth.body));
  const consent = await fetch(auth.body.data.auth_url, { redirect: 'manual' });
  assert.equal(consent.status, 302, await consent.clone().text());
  const back = new URL(consent.headers.get('location')!);
  const callback = await fetch(`http://127.0.0.1:${env.PORT}${back.pathname}${back.search}`);
  const outcome = (await callback.json()) as any;
  assert.equal(callback.status, 200, JSON.stringify(outcome));
  assert.deepEqual([outcome.data.id, outcome.data.username, outcome.data.sandbox], [seeded[0].id, 'sandbox@sandbox.mastodon.test', true]);
  const listed = await api('/v1/social-accounts?limit=100', key);
  // Beside them, the networks that connect with credentials, whose sandbox accounts were seeded.
  assert.deepEqual([...new Set(listed.body.data.map((a: any) => a.network))].sort(), ['bluesky', 'discord', 'mastodon', 'telegram', ...networks].sort());
  assert.ok(listed.body.data.every((a: any) => a.sandbox === true));
});

test('LinkedIn in the sandbox: the member and the company page they administer connect, and both publish', async (t) => {
  const { key } = await runSandbox(t);
  const auth = await api('/v1/social-networks/linkedin/auth-url', key, { method: 'POST', body: '{}' });
  const consent = await fetch(auth.body.data.auth_url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  const outcome = (await (await fetch(`http://127.0.0.1:${env.PORT}${back.pathname}${back.search}`)).json()) as any;
  const pending = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}`).then((r) => r.json() as any);
  assert.deepEqual(pending.data.availablePages.map((p: any) => p.name).slice(1), ['Sandbox Company']);
  const finalize = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}/finalize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ selectedPageIds: pending.data.availablePages.map((p: any) => p.id) }),
  }).then((r) => r.json() as any);
  const ids = finalize.connectedAccounts.map((a: any) => a.id);
  assert.equal(ids.length, 2);
  const created = await api('/v1/posts', key, { method: 'POST', body: JSON.stringify({ accounts: ids, containers: [{ content: 'Hello LinkedIn (from the sandbox)' }, { content: 'a first comment' }] }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const post = await waitForPost(key, created.body.post.id);
  assert.deepEqual(post.socialAccounts.map((a: any) => [a.status, a.error ?? null]), [['published', null], ['published', null]]);
  for (const destination of post.socialAccounts) assert.match(destination.platformPostUrl, /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/);
});

test('the README webhook walk-through: the built-in inbox receives the signed post.published, for its own org only', async (t) => {
  const { crier, key } = await runSandbox(t);
  // As printed by the guide and written in the README: <PUBLIC_BASE_URL>/sandbox/webhook-inbox.
  const inbox = crier.output().match(/"url":"(http:\/\/\S+\/sandbox\/webhook-inbox)"/)![1]!;
  assert.equal(inbox, `http://localhost:${env.PORT}/sandbox/webhook-inbox`);
  const registered = await api('/v1/webhooks', key, { method: 'POST', body: JSON.stringify({ name: 'inbox', url: inbox, events: ['post.published', 'post.error'], generateSecret: true }) });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const secret = registered.body.data.secret as string;

  const created = await api('/v1/posts', key, { method: 'POST', body: JSON.stringify({ accounts: ['sandbox_x', 'sandbox.test'], content: 'Hello, webhook inbox' }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const postId = created.body.post.id;
  let entry: any;
  for (let i = 0; i < 100 && !entry; i++) {
    const listed = await api('/v1/sandbox/webhook-inbox', key);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    entry = listed.body.data.find((e: any) => e.body?.data?.postId === postId);
    if (!entry) await sleep(100);
  }
  assert.ok(entry, 'the inbox received the delivery');
  assert.equal(entry.event, 'post.published');
  assert.equal(entry.webhookId, registered.body.data.id);
  assert.deepEqual(entry.signature, { verified: true, detail: "X-Service-Signature and webhook-signature match the webhook's secret" });
  assert.deepEqual(entry.body.data.socialAccounts.map((a: any) => a.network).sort(), ['bluesky', 'x']);
  // What a receiver would check, with the secret Crier generated: both signatures, over the raw body.
  const raw = JSON.stringify(entry.body);
  assert.equal(entry.headers['x-service-signature'], 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex'));
  assert.doesNotThrow(() => new Webhook(secret).verify(raw, entry.headers));
  assert.equal(entry.headers['webhook-id'], entry.eventId);

  // Another org of this Crier sees only its own deliveries, and nobody can post into an inbox.
  const other = await runCrier(['org', 'create', 'another'], env);
  assert.equal(other.code, 0, other.stderr);
  const otherKey = other.stdout.match(/(crier_\S+)/)![1]!;
  assert.deepEqual((await api('/v1/sandbox/webhook-inbox', otherKey)).body.data, []);
  const otherHook = await api('/v1/webhooks', otherKey, { method: 'POST', body: JSON.stringify({ name: 'inbox', url: inbox, events: ['test'] }) });
  assert.equal(otherHook.status, 201);
  assert.equal((await api(`/v1/webhooks/${otherHook.body.data.id}/test`, otherKey, { method: 'POST', body: '{}' })).status, 202);
  let others: any[] = [];
  for (let i = 0; i < 100 && others.length === 0; i++) {
    others = (await api('/v1/sandbox/webhook-inbox', otherKey)).body.data;
    if (others.length === 0) await sleep(100);
  }
  assert.deepEqual(others.map((e) => [e.event, e.webhookId, e.signature.verified]), [['test', otherHook.body.data.id, null]]);
  const mine = (await api('/v1/sandbox/webhook-inbox', key)).body.data;
  assert.ok(mine.every((e: any) => e.webhookId === registered.body.data.id), 'the other org\'s delivery is not in this inbox');

  const forged = await fetch(inbox, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': entry.eventId }, body: JSON.stringify({ event: 'post.published', data: { postId: 'forged' } }) });
  assert.equal(forged.status, 404, 'the inbox takes only what Crier has on its way to it');
  assert.equal((await api('/v1/sandbox/webhook-inbox', key)).body.data.length, mine.length);
});

test('after a kill -9, posts falling due as the sandbox restarts all publish: accounts are reconnected before the worker starts', async (t) => {
  // A data dir of its own: the sandbox accounts exactly as the sandbox connects them, nothing the
  // tests above did to them (this is the last test of the file: the others' env is not needed again).
  const own = await mkdtemp(path.join(os.tmpdir(), 'crier-sandbox-kill-'));
  t.after(() => rm(own, { recursive: true, force: true }));
  // Rate limits off: the test polls 100 posts a second, which is not what it is about.
  env = { ...env, CRIER_DATA_DIR: own, PORT: String(await freePort()), CRIER_RATE_LIMIT_ENABLED: 'false' };
  const first = await runSandbox(t);
  // Due after the kill and before the restarted worker takes jobs, so they are due the moment it does.
  const due = Date.now() + 10_000;
  const ids: string[] = [];
  for (let batch = 0; batch < 10; batch++) {
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => api('/v1/posts', first.key, {
      method: 'POST',
      body: JSON.stringify({ accounts: ['sandbox_x', 'sandbox.test'], content: `due at restart ${batch * 10 + i} ${due}`, scheduledAt: new Date(due).toISOString() }),
    })));
    for (const res of created) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      ids.push(res.body.post.id);
    }
  }
  assert.ok(Date.now() < due - 2000, 'the posts were created well before they fall due');
  first.crier.child.kill('SIGKILL');
  await first.crier.exited;
  await sleep(due + 500 - Date.now());

  const { key } = await runSandbox(t);
  // Each post read until it is final.
  const statuses = new Map<string, string[]>();
  for (const deadline = Date.now() + 60_000; statuses.size < ids.length && Date.now() < deadline; await sleep(1000)) {
    for (const id of ids.filter((id) => !statuses.has(id))) {
      const post = (await api(`/v1/posts/${id}`, key)).body.post;
      if (published(post)) statuses.set(id, post.socialAccounts.map((a: any) => a.status));
    }
  }
  assert.equal(statuses.size, ids.length, 'every post is finished');
  const all = [...statuses.values()].flat();
  const counts = Object.fromEntries([...new Set(all)].map((s) => [s, all.filter((x) => x === s).length]));
  assert.deepEqual(counts, { published: 200 }, 'every destination (100 on X, 100 on Bluesky) is published');
});
