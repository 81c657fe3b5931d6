// The Crier node and its credential as n8n runs them (runtime.ts: n8n-core's loader, WorkflowExecute
// and contexts around the packed, installed package) against `crier start --sandbox` over HTTP: a
// posting workflow (upload an image from the item's binary, post it to sandbox accounts, read it
// back), the pick-lists the editor loads, the other resources, and how Crier's refusals reach n8n.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { IAuthenticateGeneric, ICredentialTestRequest, INode, INodeProperties, INodeType, IRun } from 'n8n-workflow';
import type { PackageDirectoryLoader } from 'n8n-core';
import { freePort } from '../../src/db/embedded.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';
import { runSandbox, sandboxApi, waitForSettledPost, type SandboxRun } from '../helpers/sandbox.ts';
import { crierNode, installPackage, loadPackage, N8nRuntime, n8nVersions, outputOf, PACKAGE_NAME, useN8nHome, type InstalledPackage } from './runtime.ts';

let work: string;
/** Crier's data directory: a folder of its own (started as root, its PostgreSQL must be able to enter it). */
let crierDir: string;
let installed: InstalledPackage;
let loader: PackageDirectoryLoader;
let sandbox: SandboxRun;
let api: ReturnType<typeof sandboxApi>;
let n8n: N8nRuntime;
const cleanups: (() => unknown)[] = [];

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'crier-n8n-nodes-'));
  crierDir = await mkdtemp(path.join(os.tmpdir(), 'crier-n8n-sandbox-'));
  await useN8nHome(work);
  const env = { CRIER_DATA_DIR: crierDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CRIER_PUBLISH_MAX_ATTEMPTS: '1' };
  // The pack (tsc) and Crier's start overlap: the file's time is mostly theirs.
  [installed, sandbox] = await Promise.all([installPackage(work), runSandbox({ after: (fn) => cleanups.push(fn) }, env)]);
  loader = await loadPackage(installed.directory);
  api = sandboxApi(sandbox.port);
  n8n = new N8nRuntime(loader, { baseUrl: `http://127.0.0.1:${sandbox.port}/`, apiKey: sandbox.key });
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const dir of [work, crierDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

const account = (network: string) => sandbox.accounts.find((a) => a.network === network)!.id;

/** Runs one Crier node on `input` as a one-node workflow; its output items. */
async function runNode(parameters: INode['parameters'], input?: Parameters<N8nRuntime['execute']>[2], extra: Partial<INode> = {}) {
  const node = crierNode('Crier', 'crier', parameters, extra);
  return outputOf(await n8n.execute(n8n.workflow([node]), node, input), 'Crier');
}

test(`the tarball holds the built package only, and n8n's loader (${await n8nVersions()}) finds the credential, both nodes and their icon`, () => {
  assert.deepEqual(installed.packedFiles.filter((file) => !file.startsWith('dist/')), ['README.md', 'package.json']);
  assert.deepEqual(installed.packedFiles.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')), []);
  assert.equal(loader.packageName, PACKAGE_NAME);
  const known = (entries: Record<string, { className: string; sourcePath: string; supportedNodes?: string[] }>) =>
    Object.fromEntries(Object.entries(entries).map(([name, { className, sourcePath, supportedNodes }]) => [name, { className, sourcePath, supportedNodes }]));
  assert.deepEqual(known(loader.known.nodes), {
    crier: { className: 'Crier', sourcePath: 'dist/nodes/Crier/Crier.node.js', supportedNodes: undefined },
    crierTrigger: { className: 'CrierTrigger', sourcePath: 'dist/nodes/CrierTrigger/CrierTrigger.node.js', supportedNodes: undefined },
  });
  assert.deepEqual(known(loader.known.credentials), {
    crierApi: { className: 'CrierApi', sourcePath: 'dist/credentials/CrierApi.credentials.js', supportedNodes: ['crier', 'crierTrigger'] },
  });
  // n8n serves a package's icons from the path it resolved: the file must be in the tarball there.
  for (const type of [...loader.types.nodes, ...loader.types.credentials]) {
    assert.equal(type.iconUrl, `icons/${PACKAGE_NAME}/dist/icons/crier.svg`, type.name);
  }
  assert.ok(installed.packedFiles.includes('dist/icons/crier.svg'));
  const crier = loader.types.nodes.find((node) => node.name === 'crier')!;
  assert.equal(crier.usableAsTool, true, "the node is offered to n8n's AI agent as a tool");
  assert.deepEqual(Object.keys((loader.getNode('crier').type as INodeType).methods?.loadOptions ?? {}).sort(), ['getAccounts', 'getPinterestBoards']);
});

test("the events offered (the trigger's, and Webhook Create's) are those Crier's OpenAPI lists, but the Test action's", async () => {
  const openapi = await (await fetch(`http://127.0.0.1:${sandbox.port}/openapi.json`)).json();
  const crierEvents: string[] = openapi.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items.enum;
  const offered = (type: string) => {
    const field = (loader.getNode(type).type as INodeType).description.properties.find((p: INodeProperties) => p.name === 'events')!;
    return (field.options as { value: string }[]).map((o) => o.value);
  };
  assert.deepEqual(offered('crierTrigger'), crierEvents.filter((event) => event !== 'test'));
  assert.deepEqual(offered('crier'), offered('crierTrigger'));
});

test("the credential's test request: a 200 with the key, a 401 without a valid one; n8n puts the key in Authorization", async () => {
  const credential = n8n.credentialType('crierApi');
  const { request } = credential.test as ICredentialTestRequest;
  const node = crierNode('Crier', 'crier', {});
  const workflow = n8n.workflow([node]);
  const send = async (apiKey: string) => {
    const $credentials = { baseUrl: `http://127.0.0.1:${sandbox.port}/`, apiKey };
    const resolve = (value: string) => String(workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials }, undefined, ''));
    const { headers } = (credential.authenticate as IAuthenticateGeneric).properties;
    const authorization = resolve(String(headers!.Authorization));
    return { url: `${resolve(request.baseURL!)}${request.url}`, authorization, status: (await fetch(`${resolve(request.baseURL!)}${request.url}`, { headers: { authorization } })).status };
  };
  const good = await send(sandbox.key);
  assert.deepEqual(good, { url: `http://127.0.0.1:${sandbox.port}/v1/social-accounts`, authorization: `Bearer ${sandbox.key}`, status: 200 });
  assert.equal((await send('crier_not_a_key')).status, 401);
});

test('the pick-lists: every sandbox account, and the boards of the Pinterest account chosen', async () => {
  const node = crierNode('Crier', 'crier', { resource: 'post', operation: 'create', accounts: [] });
  const accounts = await n8n.loadOptions(node, 'getAccounts');
  assert.deepEqual(accounts.map((o) => o.value).sort(), sandbox.accounts.map((a) => a.id).sort());
  assert.ok(accounts.some((o) => o.name === 'x @sandbox_x (Sandbox X)'), JSON.stringify(accounts));

  const boards = (await api(`/v1/social-accounts/${account('pinterest')}/boards`, sandbox.key)).body.data;
  const offered = await n8n.loadOptions(node, 'getPinterestBoards', { ...node.parameters, accounts: [account('x'), account('pinterest')] });
  assert.deepEqual(offered, boards.map((b: any) => ({ name: `${b.name} (@sandbox_pinterest)`, value: b.id })));
  assert.deepEqual(await n8n.loadOptions(node, 'getPinterestBoards', { ...node.parameters, accounts: [account('x')] }), [], 'no Pinterest account chosen, no boards');
});

test('a posting workflow: the binary image uploaded to Crier, posted with it to X, Bluesky and a Pinterest board, then read back published', async () => {
  const [board] = (await api(`/v1/social-accounts/${account('pinterest')}/boards`, sandbox.key)).body.data;
  const upload = crierNode('Upload', 'crier', { resource: 'media', operation: 'upload', binaryPropertyName: 'photo', filename: '' });
  const post = crierNode('Post', 'crier', {
    resource: 'post',
    operation: 'create',
    accounts: [account('x'), account('bluesky'), account('pinterest')],
    content: '=Sunrise, {{ $json.filename }}',
    postOptions: {
      // n8n resolves the expressions against the upload's output item.
      media: { file: [{ url: '={{ $json.url }}', filename: '={{ $json.filename }}', altText: 'a sunrise' }] },
      replies: ['and a reply in the thread'],
      pinterestBoard: board.id,
      networkOptions: JSON.stringify({ x: { content: 'Sunrise on X' }, pinterest: { title: 'Sunrise pin' } }),
      idempotencyKey: `n8n-${Date.now()}`,
    },
  });
  const connections = { Upload: { main: [[{ node: 'Post', type: 'main' as const, index: 0 }]] } };
  const input = [{ json: {}, binary: { photo: { data: PNG_1X1.toString('base64'), mimeType: 'image/png', fileName: 'sunrise.png' } } }];
  const result: IRun = await n8n.execute(n8n.workflow([upload, post], connections), upload, input);

  const [uploaded] = outputOf(result, 'Upload');
  assert.equal(uploaded!.filename, 'sunrise.png');
  assert.equal(uploaded!.size, PNG_1X1.length);
  assert.equal(uploaded!.status, 'ready');
  const [created] = outputOf(result, 'Post');
  assert.deepEqual((created!.socialAccounts as any[]).map((a) => a.id).sort(), [account('x'), account('bluesky'), account('pinterest')].sort());
  assert.equal(created!.warnings, undefined, 'every option was one Crier knows');

  // What Crier holds: the post as sent, published on every account.
  const settled = await waitForSettledPost(api, sandbox.key, created!.id as string, 20);
  assert.deepEqual(settled.socialAccounts.map((a: any) => [a.username, a.status]).sort(), [['sandbox.test', 'published'], ['sandbox_pinterest', 'published'], ['sandbox_x', 'published']]);
  assert.deepEqual(settled.containers.map((c: any) => c.content), ['Sunrise, sunrise.png', 'and a reply in the thread']);
  assert.equal(settled.containers[0].media[0].url, uploaded!.url);
  assert.deepEqual(settled.networkOverrideConfiguration.pinterestConfiguration.board_id, board.id);

  // The node's Get answers what Crier answers.
  const [got] = await runNode({ resource: 'post', operation: 'get', postId: created!.id as string });
  assert.deepEqual((got!.socialAccounts as any[]).map((a) => a.status), settled.socialAccounts.map((a: any) => a.status));
});

test('posts: Get Many with a filter and a limit; Delete cancels a draft', async () => {
  const made = [];
  for (const text of ['first', 'second', 'third']) {
    made.push((await runNode({ resource: 'post', operation: 'create', accounts: [account('bluesky')], content: `list ${text}`, postOptions: { isDraft: true } }))[0]!);
  }
  assert.ok(made.every((p) => p.isDraft === true && p.scheduled === false));
  const two = await runNode({ resource: 'post', operation: 'list', returnAll: false, limit: 2, filters: { social_account_id: account('bluesky') } });
  assert.equal(two.length, 2);
  const all = await runNode({ resource: 'post', operation: 'list', returnAll: true, filters: { social_account_id: account('bluesky') } });
  assert.ok(made.every((p) => all.some((listed) => listed.id === p.id)));
  assert.ok(all.every((p) => (p.socialAccounts as any[]).some((a) => a.id === account('bluesky'))));

  // A draft is cancelled; a published post loses its record in Crier.
  const [cancelled] = await runNode({ resource: 'post', operation: 'delete', postId: made[0]!.id as string });
  assert.equal(cancelled!.outcome, 'cancelled');
});

test('replies and analytics of a published post: a comment read from the network, answered, and the figures', async () => {
  const [created] = await runNode({ resource: 'post', operation: 'create', accounts: [account('x')], content: 'Comment on me' });
  const settled = await waitForSettledPost(api, sandbox.key, created!.id as string);
  assert.equal(settled.socialAccounts[0].status, 'published');
  const comment = await api(`/v1/sandbox/posts/${created!.id}/comments`, sandbox.key, { method: 'POST', body: JSON.stringify({ network: 'x', text: 'Love this!', author: 'a_fan' }) });
  assert.equal(comment.status < 300, true, JSON.stringify(comment.body));

  const replies = await runNode({ resource: 'reply', operation: 'list', postId: created!.id as string, replyListOptions: { network: 'x' } });
  const fan = replies.find((r) => r.author_username === 'a_fan' && String(r.text).endsWith('Love this!'));
  assert.ok(fan, JSON.stringify(replies));
  const [answered] = await runNode({ resource: 'reply', operation: 'answer', postId: created!.id as string, text: 'Thank you!', answerOptions: { parent_comment_id: fan.id as string } });
  assert.equal(answered!.postId, created!.id);
  assert.equal(typeof answered!.reply_id, 'string');

  const [analytics] = await runNode({ resource: 'analytics', operation: 'get', postId: created!.id as string });
  assert.equal((analytics!.post as any).id, created!.id);
  assert.deepEqual((analytics!.metrics_by_account as any[]).map((m) => m.social_account.id), [account('x')]);
  assert.ok('aggregated_metrics' in analytics!);

  const [deleted] = await runNode({ resource: 'post', operation: 'delete', postId: created!.id as string });
  assert.equal(deleted!.outcome, 'record_deleted');
  assert.equal((await api(`/v1/posts/${created!.id}`, sandbox.key)).status, 404);
});

test('accounts, boards and webhooks through the node', async () => {
  const accounts = await runNode({ resource: 'account', operation: 'list' });
  assert.deepEqual(accounts.map((a) => a.id).sort(), sandbox.accounts.map((a) => a.id).sort());
  const boards = await runNode({ resource: 'account', operation: 'listBoards', accountId: account('pinterest') });
  assert.deepEqual(boards, (await api(`/v1/social-accounts/${account('pinterest')}/boards`, sandbox.key)).body.data);

  const inbox = `http://localhost:${sandbox.port}/sandbox/webhook-inbox`;
  const [created] = await runNode({ resource: 'webhook', operation: 'create', name: 'from n8n', url: inbox, events: ['post.published', 'comment.received'], generateSecret: true });
  assert.match(created!.secret as string, /^whsec_/);
  assert.deepEqual(created!.events, ['post.published', 'comment.received']);
  const listed = await runNode({ resource: 'webhook', operation: 'list', returnAll: true });
  assert.ok(listed.some((w) => w.id === created!.id && w.hasSecret === true && !('secret' in w)));
  await runNode({ resource: 'webhook', operation: 'delete', webhookId: created!.id as number });
  assert.equal((await api(`/v1/webhooks/${created!.id}`, sandbox.key)).status, 404);
});

test("Crier's refusals reach n8n with Crier's message; with Continue On Fail they become the item's error", async () => {
  const refused = runNode({ resource: 'post', operation: 'create', accounts: ['nobody_here'], content: 'to no one' });
  await assert.rejects(refused, (error: Error) => {
    const cause = (error as { cause?: { httpCode?: string; description?: string; message?: string } }).cause;
    assert.equal(cause?.httpCode, '400');
    assert.equal(cause?.message, 'Crier: No account in "accounts" matches a connected social account');
    assert.equal(cause?.description, 'code no_account_resolved\naccounts: no entry matches an account id or exact username of this organization');
    return true;
  });
  const badJson = runNode({ resource: 'post', operation: 'create', accounts: [account('x')], content: 'x', postOptions: { networkOptions: '{"x": ' } });
  await assert.rejects(badJson, /Per-Network Options is not valid JSON/);

  const items = await runNode({ resource: 'post', operation: 'get', postId: 'nonexistent' }, [{ json: {} }, { json: {} }], { continueOnFail: true });
  assert.equal(items.length, 2);
  assert.ok(items.every((item) => typeof item.error === 'string' && item.error.length > 0), JSON.stringify(items));
});
