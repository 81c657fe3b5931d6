// The client commands as a user runs them: `crier` child processes against `crier start --sandbox`,
// over HTTP with the key the sandbox printed. Posting with a local image, following it to its final
// state, the JSON for scripts, and what each failure prints and exits with.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runCrier } from '../helpers/process.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';
import { runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';

let dataDir: string;
let sandbox: SandboxRun;
let client: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
let image: string;
/** What runSandbox registers for the end: run when this file's tests are done, not when `before` is. */
const cleanups: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-client-'));
  const port = String(await freePort());
  // One attempt per destination: a destination that cannot publish fails at once instead of after minutes of retries.
  sandbox = await runSandbox({ after: (fn) => cleanups.push(fn) }, { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn', CRIER_PUBLISH_MAX_ATTEMPTS: '1' });
  client = { CRIER_URL: `http://127.0.0.1:${sandbox.port}`, CRIER_API_KEY: sandbox.key };
  api = sandboxApi(sandbox.port);
  image = path.join(dataDir, 'sunrise.png');
  await writeFile(image, PNG_1X1);
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

const crier = (...args: string[]) => runCrier(args, client);

test('accounts lists the sandbox accounts as a table, and --json is the API answer', async () => {
  const table = await crier('accounts');
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^ID\s+NETWORK\s+USERNAME/);
  for (const account of sandbox.accounts) assert.match(table.stdout, new RegExp(`^${account.id}\\s+${account.network}\\s+@${account.username.replace(/[.]/g, '\\.')}`, 'm'));
  const json = await crier('accounts', '--json');
  assert.deepEqual(JSON.parse(json.stdout).data.map((a: any) => a.id).sort(), sandbox.accounts.map((a) => a.id).sort());
});

test('a post with a local image is uploaded (progress on stderr), published (an unknown --to is warned about), and status --watch ends with the final view', async () => {
  const posted = await crier('post', '--to', 'sandbox_x', '--to', 'sandbox_threads', '--to', 'nobody_here', '--text', 'Sunrise from the CLI', '--reply', 'and a reply', '--media', image);
  assert.equal(posted.code, 0, posted.stderr);
  assert.match(posted.stderr, /uploading sunrise\.png: 100% \(\d+ of \d+ bytes\)/);
  // An entry that matches no account is dropped by Crier (spec rule 2): the CLI says so.
  assert.match(posted.stderr, /^warning: --to nobody_here matches no account/m);
  const [, id] = posted.stdout.match(/^post (\S+) queued for publishing, to x @sandbox_x, threads @sandbox_threads$/m) ?? [];
  assert.ok(id, posted.stdout);

  const watched = await crier('status', id!, '--watch');
  assert.equal(watched.code, 0, watched.stdout + watched.stderr);
  const finalView = watched.stdout.slice(watched.stdout.lastIndexOf(`post ${id}:`));
  assert.match(finalView, new RegExp(`^post ${id}: 2 published\\n`));
  // Sandbox accounts publish to the emulators: no real x.com or threads.net address is offered.
  assert.match(finalView, /^x\s+@sandbox_x\s+published\s+sandbox: not on the real network \(post \d+ on the emulator\)$/m);
  assert.match(finalView, /^threads\s+@sandbox_threads\s+published\s+sandbox: not on the real network \(post \S+ on the emulator\)$/m);
  assert.doesNotMatch(finalView, /https:\/\//);

  // What the API holds: the uploaded file is the root's media, and the reply follows it.
  const { body } = await api(`/v1/posts/${id}`, sandbox.key);
  assert.equal(body.post.containers[0].media[0].filename, 'sunrise.png');
  assert.deepEqual(body.post.containers.map((c: any) => c.content), ['Sunrise from the CLI', 'and a reply']);
});

test('status --watch --json prints the final post as JSON; posts --json lists it', async () => {
  const posted = await crier('post', '--to', 'sandbox_x', '--text', 'For scripts', '--json');
  assert.equal(posted.code, 0, posted.stderr);
  const created = JSON.parse(posted.stdout);
  assert.equal(created.post.containers[0].content, 'For scripts');
  const watched = await crier('status', created.post.id, '--watch', '--json');
  assert.equal(watched.code, 0, watched.stderr);
  assert.deepEqual(JSON.parse(watched.stdout).post.socialAccounts.map((d: any) => d.status), ['published']);
  const listed = await crier('posts', '--json', '--account', sandbox.accounts.find((a) => a.username === 'sandbox_x')!.id);
  assert.ok(JSON.parse(listed.stdout).posts.some((p: any) => p.id === created.post.id));
  const table = await crier('posts', '--limit', '1');
  assert.match(table.stdout, new RegExp(`^${created.post.id}\\s+\\S+ \\S+\\s+published`, 'm'));
});

test('status --watch exits 4 when a destination fails, with its error in the final view', async () => {
  const posted = await crier('post', '--to', 'sandbox_x', '--text', 'A picture that is not there', '--media', 'https://media.example.invalid/photo.png', '--json');
  assert.equal(posted.code, 0, posted.stderr);
  const { id } = JSON.parse(posted.stdout).post;
  const watched = await crier('status', id, '--watch');
  assert.equal(watched.code, 4, watched.stdout + watched.stderr);
  assert.match(watched.stdout, /^x\s+@sandbox_x\s+failed\s+media https:\/\/media\.example\.invalid\/photo\.png could not be downloaded/m);
});

test('a draft and a scheduled post are reported as such, and --watch does not wait on a draft', async () => {
  const draft = await crier('post', '--to', 'sandbox_x', '--text', 'Later, maybe', '--draft');
  assert.match(draft.stdout, /^post (\S+) saved as a draft/);
  const id = draft.stdout.split(' ')[1]!;
  const watched = await crier('status', id, '--watch');
  assert.equal(watched.code, 0);
  assert.match(watched.stdout, /draft, nothing publishes it/);
  const scheduled = await crier('post', '--to', 'sandbox_x', '--text', 'Tomorrow', '--at', '+1d', '--json');
  const at = Date.parse(JSON.parse(scheduled.stdout).post.scheduledAt);
  assert.ok(Math.abs(at - (Date.now() + 86_400_000)) < 60_000, `scheduled a day from now, not ${new Date(at).toISOString()}`);
});

test('one Idempotency-Key per post: the same key given twice creates one post', async () => {
  const key = `cli-test-${Date.now()}`;
  const first = await crier('post', '--to', 'sandbox_x', '--text', 'Only once', '--idempotency-key', key, '--json');
  const second = await crier('post', '--to', 'sandbox_x', '--text', 'Only once', '--idempotency-key', key, '--json');
  assert.equal(JSON.parse(second.stdout).post.id, JSON.parse(first.stdout).post.id);
});

test('webhooks create, list, test (waits for the delivery) and delete, on the sandbox inbox', async () => {
  const inbox = sandbox.crier.output().match(/"url":"(http[^"]*webhook-inbox)"/)![1]!;
  const created = await crier('webhooks', 'create', '--name', 'cli inbox', '--endpoint', inbox, '--events', 'post.published,post.error', '--generate-secret');
  assert.equal(created.code, 0, created.stderr);
  const [, id] = created.stdout.match(/^webhook (\d+) "cli inbox" created: post\.published, post\.error/m) ?? [];
  assert.ok(id, created.stdout);
  assert.match(created.stdout, /^signing secret \(shown once\): whsec_\S+$/m);
  assert.match((await crier('webhooks', 'list')).stdout, new RegExp(`^${id}\\s+cli inbox\\s+on\\s+post\\.published,post\\.error\\s+${inbox}$`, 'm'));
  const tested = await crier('webhooks', 'test', id!);
  assert.equal(tested.code, 0, tested.stdout + tested.stderr);
  assert.match(tested.stdout, /^delivered: HTTP 200 in \d+ ms$/m);
  assert.equal((await crier('webhooks', 'delete', id!)).code, 0);
  const listed = JSON.parse((await crier('webhooks', 'list', '--json')).stdout);
  assert.ok(!listed.data.some((w: any) => String(w.id) === id), 'deleted');
  const again = await crier('webhooks', 'delete', id!);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /Crier answered 404/);
});

test('--dry-run judges the post and stores nothing (or, on a Crier without dry runs, sends nothing)', async () => {
  const before = (await api('/v1/posts?limit=1', sandbox.key)).body.pagination.total;
  const judged = await crier('post', '--to', 'sandbox_x', '--text', 'Just checking', '--dry-run');
  const offered = (await fetch(`${client.CRIER_URL}/openapi.json`).then((r) => r.json()) as any).paths['/v1/posts'].post.parameters?.some((p: any) => p.name === 'dry_run');
  if (offered) {
    assert.equal(judged.code, 0, judged.stderr);
    assert.match(judged.stdout, /^\S+\s+x\s+@sandbox_x\s+ok/m);
    // X publishes 280 characters at most: refused, with publishing's own reason, and the command exits 2.
    const refused = await crier('post', '--to', 'sandbox_x', '--text', 'a'.repeat(349), '--dry-run');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stdout, /^\S+\s+x\s+@sandbox_x\s+refused\s+x: container 1 is 349 characters as X counts them/m);
    // Instagram publishes only with an image: the create's 400, naming the account, and the command exits 2.
    const never = await crier('post', '--to', 'sandbox_x', '--to', 'sandbox_ig', '--text', 'No picture', '--dry-run');
    assert.equal(never.code, 2, never.stderr);
    assert.match(never.stderr, /socialAccounts\[1\]: instagram: Instagram needs an image or a video/);
  } else {
    assert.equal(judged.code, 2);
    assert.match(judged.stderr, /has no dry run .*nothing was sent/);
  }
  assert.equal((await api('/v1/posts?limit=1', sandbox.key)).body.pagination.total, before, 'no post stored');
});

test('edit changes a published thread part on Telegram and says so per account; a text Telegram would refuse exits 2 and changes nothing', async () => {
  const posted = await crier('post', '--to', 'crier_sandbox', '--text', 'Doors at 8', '--reply', 'Talks at 9', '--json');
  assert.equal(posted.code, 0, posted.stderr);
  const { id } = JSON.parse(posted.stdout).post;
  const watched = await crier('status', id, '--watch');
  assert.equal(watched.code, 0, watched.stdout + watched.stderr);
  const edited = await crier('edit', id, '--part', '2', '--text', 'Talks at 9:30');
  assert.equal(edited.code, 0, edited.stdout + edited.stderr);
  assert.match(edited.stdout, /^telegram\s+@crier_sandbox\s+edited$/m);
  const read = (await api(`/v1/posts/${id}`, sandbox.key)).body.post;
  assert.deepEqual(read.socialAccounts[0].editedContainers, [{ position: 1, content: 'Talks at 9:30' }]);
  const refused = await crier('edit', id, '--text', 'x'.repeat(5000));
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /Telegram \(@crier_sandbox\): .*4,?096/);
  assert.deepEqual((await api(`/v1/posts/${id}`, sandbox.key)).body.post.socialAccounts[0].editedContainers, [{ position: 1, content: 'Talks at 9:30' }]);
  const bad = await crier('edit', id, '--part', '0', '--text', 'no');
  assert.equal(bad.code, 1);
});
