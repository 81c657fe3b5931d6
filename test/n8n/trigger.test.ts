// The Crier Trigger as n8n runs it (runtime.ts: n8n-core's HookContext and WebhookContext around the
// packed, installed package, the workflow's static data kept between them) against
// `crier start --sandbox`: activation registers a Crier webhook for the trigger's URL, a post
// published in the sandbox is delivered to the trigger (an HTTPS server standing for n8n's webhook
// endpoint), forged deliveries are refused with 401, and deactivation deletes the webhook.
import assert from 'node:assert/strict';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { INode, Workflow } from 'n8n-workflow';
import { freePort } from '../../src/db/embedded.ts';
import { startHttpsServer, type ReceivedRequest, type TestHttpsServer } from '../helpers/https-server.ts';
import { runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';
import { until } from '../helpers/until.ts';
import { crierNode, installPackage, loadPackage, N8nRuntime, useN8nHome } from './runtime.ts';

let work: string;
let crierDir: string;
let front: TestHttpsServer;
let sandbox: SandboxRun;
let api: ReturnType<typeof sandboxApi>;
let n8n: N8nRuntime;
let trigger: INode;
let workflow: Workflow;
let hookPath: string;
const cleanups: (() => unknown)[] = [];

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'crier-n8n-trigger-'));
  crierDir = await mkdtemp(path.join(os.tmpdir(), 'crier-n8n-sandbox-'));
  await useN8nHome(work);
  // n8n's public webhook address: an HTTPS server on this machine, whose certificate Crier is told to
  // trust and whose loopback address it is allowed to call (settings for tests only).
  front = await startHttpsServer();
  const env = {
    CRIER_DATA_DIR: crierDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
    CRIER_PUBLISH_MAX_ATTEMPTS: '1', CRIER_ALLOW_LOOPBACK_FETCH: 'true', CRIER_EXTRA_CA_FILE: await front.caFile(),
  };
  const [installed, run] = await Promise.all([installPackage(work), runSandbox({ after: (fn) => cleanups.push(fn) }, env)]);
  sandbox = run;
  api = sandboxApi(sandbox.port);
  n8n = new N8nRuntime(await loadPackage(installed.directory), { baseUrl: `http://127.0.0.1:${sandbox.port}`, apiKey: sandbox.key }, `${front.url}/webhook`);
  trigger = crierNode('Crier Trigger', 'crierTrigger', { events: ['post.published'] }, { webhookId: randomUUID() });
  workflow = n8n.workflow([trigger]);
  hookPath = n8n.webhookPath(workflow, trigger);
  front.route(hookPath, (req, res, body) => n8n.deliver(workflow, trigger, req, res, body));
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await front?.close();
  for (const dir of [work, crierDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** What the trigger keeps in the workflow's static data. */
const stored = () => workflow.staticData[`node:${trigger.name}`] as { webhookId?: number; secret?: string } | undefined;
const webhooks = async () => (await api('/v1/webhooks', sandbox.key)).body.data as any[];

/** A POST to the trigger's webhook URL, as anyone on the internet could send one. */
function postToTrigger(headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${front.url}${hookPath}`, { method: 'POST', ca: front.ca, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Both of Crier's signature headers for `body`, made with `secret` (a whsec_ secret) at `timestamp`. */
function signed(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'x-service-signature': 'sha256=' + createHmac('sha256', secret).update(body).digest('hex'),
    'webhook-signature': 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
let genuine: ReceivedRequest;
let postId: string;

test("activation registers a Crier webhook for the trigger's URL and events, with the id and secret in the static data; activating again finds it", async () => {
  assert.deepEqual(await n8n.activate(workflow, trigger), { existed: false });
  const [webhook, ...others] = await webhooks();
  assert.deepEqual(others, []);
  assert.equal(webhook.url, `${front.url}/webhook/${trigger.webhookId}/webhook`);
  assert.equal(hookPath, `/webhook/${trigger.webhookId}/webhook`);
  assert.deepEqual([webhook.events, webhook.enabled, webhook.hasSecret], [['post.published'], true, true]);
  assert.equal(stored()?.webhookId, webhook.id);
  assert.match(stored()?.secret ?? '', /^whsec_/);

  assert.deepEqual(await n8n.activate(workflow, trigger), { existed: true });
  assert.deepEqual((await webhooks()).map((w) => w.id), [webhook.id]);
});

test('a post published in the sandbox delivers post.published to the trigger: the signatures pass and the workflow starts with the event', async () => {
  const created = await api('/v1/posts', sandbox.key, { method: 'POST', body: JSON.stringify({ accounts: ['sandbox_x'], content: 'Seen by n8n' }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  postId = created.body.post.id;
  const item = await until(() => n8n.triggered.find((i) => (i.json.data as any)?.postId === postId), 30_000, 'the post.published delivery');
  assert.equal(item.json.event, 'post.published');
  assert.deepEqual((item.json.data as any).socialAccounts.map((a: any) => [a.username, a.network]), [['sandbox_x', 'x']]);

  // What arrived was signed (the check ran on real signatures), and Crier recorded the 200.
  genuine = front.requests.find((r) => r.path === hookPath && r.body.toString().includes(postId))!;
  assert.match(String(genuine.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
  assert.match(String(genuine.headers['webhook-signature']), /^v1,/);
  assert.equal(item.json.id, genuine.headers['webhook-id']);
  // Crier writes the attempt's result once the answer is in: read the log until it is there.
  const log = await until(async () => {
    const attempts = (await api(`/v1/webhooks/${stored()!.webhookId}/deliveries`, sandbox.key)).body.data;
    return attempts.every((a: any) => a.finishedAt !== null) ? attempts : undefined;
  }, 10_000, 'the attempt recorded in the delivery log');
  assert.deepEqual(log.map((a: any) => [a.event, a.statusCode, a.succeeded]), [['post.published', 200, true]]);
});

test('forged deliveries are answered 401 and start nothing: tampered, signed with another secret, unsigned, too old; the genuine one resent passes', async () => {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-service-signature'].map((name) => [name, String(genuine.headers[name])]));
  const body = genuine.body.toString('utf8');
  const started = n8n.triggered.length;

  const tampered = await postToTrigger(headers, body.replace(postId, 'someoneElse'));
  assert.deepEqual(tampered, { status: 401, body: JSON.stringify({ error: 'Signature refused: X-Service-Signature does not match the body' }) });
  const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const forged = await postToTrigger(signed(otherSecret, randomUUID(), nowSeconds(), body), body);
  assert.equal(forged.status, 401);
  assert.match(forged.body, /X-Service-Signature does not match/);
  const unsigned = await postToTrigger({ 'webhook-id': randomUUID(), 'webhook-timestamp': String(nowSeconds()) }, body);
  assert.deepEqual([unsigned.status, JSON.parse(unsigned.body).error], [401, 'Signature refused: missing X-Service-Signature']);
  // Signed with the real secret, but ten minutes ago: a captured delivery replayed later.
  const old = await postToTrigger(signed(stored()!.secret!, String(headers['webhook-id']), nowSeconds() - 600, body), body);
  assert.deepEqual([old.status, JSON.parse(old.body).error], [401, 'Signature refused: webhook-timestamp is outside the tolerance (a replayed delivery?)']);
  // Only the Standard Webhooks signature wrong: refused too.
  const halfSigned = await postToTrigger({ ...headers, 'webhook-signature': signed(otherSecret, headers['webhook-id']!, Number(headers['webhook-timestamp']), body)['webhook-signature']! }, body);
  assert.deepEqual([halfSigned.status, JSON.parse(halfSigned.body).error], [401, 'Signature refused: webhook-signature does not match']);
  assert.equal(n8n.triggered.length, started, 'no forged delivery started the workflow');

  const resent = await postToTrigger(headers, body);
  assert.equal(resent.status, 200, resent.body);
  assert.equal(n8n.triggered.length, started + 1);
});

test('a webhook deleted in Crier meanwhile, or other events chosen: activation registers a new one in its place', async () => {
  const first = stored()!.webhookId!;
  assert.equal((await api(`/v1/webhooks/${first}`, sandbox.key, { method: 'DELETE' })).status, 200);
  assert.deepEqual(await n8n.activate(workflow, trigger), { existed: false });
  const second = stored()!.webhookId!;
  assert.notEqual(second, first);
  assert.deepEqual((await webhooks()).map((w) => w.id), [second]);

  trigger.parameters.events = ['post.published', 'post.error'];
  assert.deepEqual(await n8n.activate(workflow, trigger), { existed: false });
  const [replaced, ...others] = await webhooks();
  assert.deepEqual(others, [], 'the webhook for the old events was deleted');
  assert.deepEqual([replaced.id, replaced.events], [stored()!.webhookId, ['post.published', 'post.error']]);
});

test('deactivation deletes the webhook in Crier and forgets its secret: a delivery after it is refused', async () => {
  const id = stored()!.webhookId!;
  const secret = stored()!.secret!;
  assert.equal(await n8n.deactivate(workflow, trigger), true);
  assert.equal((await api(`/v1/webhooks/${id}`, sandbox.key)).status, 404);
  assert.deepEqual(await webhooks(), []);
  assert.deepEqual(stored(), {});

  const body = JSON.stringify({ id: randomUUID(), event: 'post.published', timestamp: new Date().toISOString(), data: { postId } });
  const late = await postToTrigger(signed(secret, randomUUID(), nowSeconds(), body), body);
  assert.deepEqual([late.status, JSON.parse(late.body).error], [401, 'Signature refused: this trigger has registered no webhook']);
});
