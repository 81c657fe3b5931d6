// `npx crier queues …`, `recurrences …`, `evergreen …`, `import …`, `approve` and `reject` as a user
// runs them: `crier` child processes against `crier start --sandbox` over HTTP. What each prints, what the API then holds, and the exit
// codes: 1 for a flag the CLI refuses itself, 2 for what the API refuses (or a file with a row refused).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runCrier } from '../helpers/process.ts';
import { runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';

let dataDir: string;
let sandbox: SandboxRun;
let client: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
const cleanups: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-planning-'));
  const port = String(await freePort());
  sandbox = await runSandbox({ after: (fn) => cleanups.push(fn) }, { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  client = { CRIER_URL: `http://127.0.0.1:${sandbox.port}`, CRIER_API_KEY: sandbox.key };
  api = sandboxApi(sandbox.port);
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

const crier = (...args: string[]) => runCrier(args, client);
const accountOf = (network: string) => sandbox.accounts.find((a) => a.network === network)!;
const idIn = (text: string, pattern: RegExp) => {
  const [, id] = text.match(pattern) ?? [];
  assert.ok(id, text);
  return id!;
};

describe('queues', () => {
  test('create by username, list, show the next slots, delete; a zone the API refuses exits 2, a malformed --slot 1', async () => {
    const account = accountOf('bluesky');
    const refused = await crier('queues', 'create', '--account', account.username, '--zone', 'Mars/Olympus', '--slot', 'mon@09:00');
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /Crier answered 400: .*\n\s+timeZone: "Mars\/Olympus" is not an IANA time zone name/);
    const malformed = await crier('queues', 'create', '--account', account.username, '--zone', 'Europe/Paris', '--slot', 'someday');
    assert.equal(malformed.code, 1);
    assert.match(malformed.stderr, /--slot "someday": give a day and a local time, such as mon@09:00/);

    const created = await crier('queues', 'create', '--account', account.username, '--zone', 'Europe/Paris', '--slot', 'mon@09:00', '--slot', 'thursday@17:30');
    assert.equal(created.code, 0, created.stderr);
    const id = idIn(created.stdout, /^queue (\S+) created: mon 09:00, thu 17:30 in Europe\/Paris; its next slots: npx crier queues show \S+$/m);
    const stored = (await api(`/v1/queues/${id}`, sandbox.key)).body.data;
    assert.deepEqual([stored.socialAccountId, stored.timeZone, stored.slots], [account.id, 'Europe/Paris', [{ day: 'monday', time: '09:00' }, { day: 'thursday', time: '17:30' }]]);

    const listed = await crier('queues', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^ID\s+ACCOUNT\s+ZONE\s+SLOTS$/m);
    assert.match(listed.stdout, new RegExp(`^${id}\\s+bluesky @${account.username.replace(/\./g, '\\.')}\\s+Europe/Paris\\s+mon 09:00, thu 17:30$`, 'm'));

    const shown = await crier('queues', 'show', id, '--slots', '3');
    assert.equal(shown.code, 0, shown.stderr);
    const preview = (await api(`/v1/queues/${id}/slots?count=3`, sandbox.key)).body.data;
    const slotLines = shown.stdout.split('\n').filter((line) => /^(mon|thu) \d\d:\d\d\s/.test(line));
    assert.equal(slotLines.length, 3, shown.stdout);
    assert.ok(slotLines[0]!.includes(preview[0].at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')), shown.stdout);
    assert.ok(slotLines.every((line) => /\sfree/.test(line)));
    const json = JSON.parse((await crier('queues', 'show', id, '--slots', '2', '--json')).stdout);
    assert.deepEqual([json.data.id, json.slots.length], [id, 2]);

    const deleted = await crier('queues', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal((await api(`/v1/queues/${id}`, sandbox.key)).status, 404);
  });
});

describe('recurrences', () => {
  test('create every 2 days 3 times, list, show, pause, resume, delete', async () => {
    const x = accountOf('x');
    const created = await crier('recurrences', 'create', '--to', x.username, '--text', 'Every other day from the CLI', '--every', '2d', '--count', '3', '--start', '+1d');
    assert.equal(created.code, 0, created.stderr);
    const id = idIn(created.stdout, /^recurrence (\S+) \(active\): every 2d from \S+ \S+, 3 times$/m);
    assert.match(created.stdout, new RegExp(`^  "Every other day from the CLI" to ${x.id}$`, 'm'));
    const stored = (await api(`/v1/recurrences/${id}`, sandbox.key)).body.data;
    assert.deepEqual([stored.every, stored.count, stored.accounts], [{ days: 2, hours: 0 }, 3, [x.id]]);

    const listed = await crier('recurrences', 'list');
    assert.match(listed.stdout, new RegExp(`^${id}\\s+active\\s+every 2d\\s+\\S+ \\S+\\s+\\d+\\s+Every other day from the CLI$`, 'm'));
    const shown = await crier('recurrences', 'show', id);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^recurrence ${id} \\(active\\)`));

    assert.equal((await crier('recurrences', 'pause', id)).code, 0);
    assert.equal((await api(`/v1/recurrences/${id}`, sandbox.key)).body.data.status, 'paused');
    const resumed = await crier('recurrences', 'resume', id);
    assert.match(resumed.stdout, new RegExp(`^recurrence ${id} resumed; next: `));
    assert.equal((await api(`/v1/recurrences/${id}`, sandbox.key)).body.data.status, 'active');
    const deleted = await crier('recurrences', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, new RegExp(`^recurrence ${id} deleted`));
    assert.equal((await api(`/v1/recurrences/${id}`, sandbox.key)).status, 404);
  });

  test('weekly needs a zone (exit 1); the API\'s refusal of a rule exits 2 with its field', async () => {
    const x = accountOf('x');
    const noZone = await crier('recurrences', 'create', '--to', x.id, '--text', 'Weekly', '--weekly', 'mon,thu@09:00');
    assert.equal(noZone.code, 1);
    assert.match(noZone.stderr, /--weekly needs --zone/);
    const weekly = await crier('recurrences', 'create', '--to', x.id, '--text', 'Weekly', '--weekly', 'mon,thu@25:00', '--zone', 'Europe/Paris');
    assert.equal(weekly.code, 2, weekly.stdout + weekly.stderr);
    assert.match(weekly.stderr, /Crier answered 400: [^\n]*\n\s+weekly\.time: /);
    const good = await crier('recurrences', 'create', '--to', x.id, '--text', 'Weekly', '--weekly', 'mon,thu@09:00', '--zone', 'Europe/Paris', '--json');
    assert.equal(good.code, 0, good.stderr);
    const data = JSON.parse(good.stdout).data;
    assert.deepEqual(data.weekly, { days: ['monday', 'thursday'], time: '09:00', timeZone: 'Europe/Paris' });
    await crier('recurrences', 'delete', data.id);
  });
});

describe('import', () => {
  const file = async (name: string, lines: string[]) => {
    const where = path.join(dataDir, name);
    await writeFile(where, lines.join('\n'));
    return where;
  };

  test('--dry-run prints each row\'s verdict and exits 2 for a refused row; a good file exits 0 and stores nothing', async () => {
    const bluesky = accountOf('bluesky');
    const mixed = await file('mixed.csv', ['accounts,content,isDraft', `${bluesky.id},Good row,true`, 'nobody_here,Nobody,true']);
    const judged = await crier('import', mixed, '--dry-run');
    assert.equal(judged.code, 2, judged.stderr);
    assert.match(judged.stdout, /^ROW\s+VERDICT\s+ACCOUNTS\s+REASONS$/m);
    assert.match(judged.stdout, new RegExp(`^1\\s+ok\\s+@${bluesky.username.replace(/\./g, '\\.')}\\s*$`, 'm'));
    assert.match(judged.stdout, /^2\s+refused\s+-\s+No account in "accounts" matches a connected social account; accounts: no entry matches/m);
    assert.match(judged.stdout, /^1 ok, 1 refused$/m);

    const good = await file('good.jsonl', [JSON.stringify({ accounts: [bluesky.id], content: 'JSON line', isDraft: true })]);
    const fine = await crier('import', good, '--dry-run', '--json');
    assert.equal(fine.code, 0, fine.stderr);
    assert.deepEqual([JSON.parse(fine.stdout).ok, JSON.parse(fine.stdout).total], [1, 1]);
    assert.equal((await api('/v1/posts/bulk', sandbox.key)).body.count, 0, 'a dry run queues no import');
  });

  test('--wait follows the import to its end: the created rows\' posts exist, a failed row exits 2; list; a completed import cannot be cancelled', async () => {
    const bluesky = accountOf('bluesky');
    const csv = await file('run.csv', ['accounts,content,isDraft', `${bluesky.id},Imported one,true`, 'nobody_here,Nobody,true', `${bluesky.username},Imported two,true`]);
    const ran = await crier('import', csv, '--wait');
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.match(ran.stderr, /^import \S+ queued: 3 rows$/m);
    const id = idIn(ran.stdout, /^import (\S+) completed: 3 of 3 rows done: 2 created, 1 failed$/m);
    assert.match(ran.stdout, /^2\s+No account in "accounts" matches a connected social account; accounts: /m);
    const job = (await api(`/v1/posts/bulk/${id}`, sandbox.key)).body.data;
    const posts = await Promise.all(job.rows.filter((r: any) => r.postId).map(async (r: any) => (await api(`/v1/posts/${r.postId}`, sandbox.key)).body.post.containers[0].content));
    assert.deepEqual(posts, ['Imported one', 'Imported two']);

    const good = await file('good.csv', ['accounts,content,isDraft', `${bluesky.id},All good,true`]);
    const queued = await crier('import', good);
    assert.equal(queued.code, 0, queued.stderr);
    const second = idIn(queued.stdout, /^import (\S+) queued: 1 rows; follow it: npx crier import show \S+$/m);
    const followed = await crier('import', 'show', second, '--wait');
    assert.equal(followed.code, 0, followed.stdout + followed.stderr);
    assert.match(followed.stdout, /completed: 1 of 1 rows done: 1 created, 0 failed$/m);

    const listed = await crier('import', 'list');
    assert.match(listed.stdout, new RegExp(`^${second}\\s+\\S+ \\S+\\s+completed\\s+1\\s+1 created, 0 failed$`, 'm'));
    assert.match(listed.stdout, new RegExp(`^${id}\\s+\\S+ \\S+\\s+completed\\s+3\\s+2 created, 1 failed$`, 'm'));

    const cancelled = await crier('import', 'cancel', id);
    assert.equal(cancelled.code, 2);
    assert.match(cancelled.stderr, /Crier answered 409: This bulk import has already completed.*\[bulk_import_completed\]/);
    const missing = await crier('import', path.join(dataDir, 'nothing-here.csv'));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nothing-here\.csv: ENOENT/);
  });
});

describe('approvals', () => {
  test('posts --status pending_approval lists the posts waiting; approve queues one, reject turns one down with its reason; a second decision exits 2', async () => {
    const account = accountOf('bluesky');
    assert.equal((await api('/v1/settings', sandbox.key, { method: 'PATCH', body: JSON.stringify({ requireApproval: true }) })).status, 200);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const made = [];
    for (const content of ['cli approves this', 'cli rejects this']) {
      const res = await api('/v1/posts', sandbox.key, { method: 'POST', body: JSON.stringify({ accounts: [account.id], content, scheduledAt: later }) });
      made.push(res.body.post.id as string);
    }
    assert.equal((await api('/v1/settings', sandbox.key, { method: 'PATCH', body: JSON.stringify({ requireApproval: false }) })).status, 200);

    const waiting = await crier('posts', '--status', 'pending_approval');
    assert.equal(waiting.code, 0, waiting.stderr);
    for (const id of made) assert.match(waiting.stdout, new RegExp(`^${id}\\s.*waiting for approval`, 'm'));

    const approved = await crier('approve', made[0]!);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, new RegExp(`^post ${made[0]} approved: scheduled .+; follow it: npx crier status ${made[0]} --watch$`, 'm'));
    const rejected = await crier('reject', made[1]!, '--reason', 'not our voice');
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, new RegExp(`^post ${made[1]} rejected \\("not our voice"\\): it will not be published$`, 'm'));
    assert.deepEqual((await api(`/v1/posts/${made[1]}`, sandbox.key)).body.post.approval.reason, 'not our voice');

    const again = await crier('approve', made[1]!);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /was rejected already/);
    const bad = await crier('approve', made[0]!, '--reason', 'why not');
    assert.equal(bad.code, 1);
  });
});

describe('evergreen', () => {
  test('create on a rule with two items, show, add an item with a variation, pause, delete; no schedule or two exits 1; a refused item exits 2 naming it', async () => {
    const account = accountOf('bluesky');
    const none = await crier('evergreen', 'create', '--name', 'none', '--to', account.username, '--text', 'a');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /needs one of --queue .*, --every .* or --weekly/);
    const two = await crier('evergreen', 'create', '--name', 'two', '--to', account.username, '--text', 'a', '--queue', '--every', '7d');
    assert.equal(two.code, 1);

    const created = await crier('evergreen', 'create', '--name', 'best of', '--to', account.username, '--every', '7d', '--gap', '14', '--text', 'An old favourite', '--text', 'Another favourite');
    assert.equal(created.code, 0, created.stderr);
    const id = idIn(created.stdout, /^evergreen (\S+) "best of" \(active\): every 7d, an item at most every 14 days, to \S+$/m);
    const stored = (await api(`/v1/evergreen-collections/${id}`, sandbox.key)).body.data;
    assert.deepEqual([stored.minGapDays, stored.every, stored.items.map((i: any) => i.content)], [14, { days: 7, hours: 0 }, ['An old favourite', 'Another favourite']]);

    const added = await crier('evergreen', 'add', id, '--text', 'One more', '--variation', 'One more, said again');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, new RegExp(`^item \\S+ added to evergreen ${id} with 1 variation\\(s\\)$`, 'm'));
    const empty = await crier('evergreen', 'add', id, '--text', '');
    assert.equal(empty.code, 2, empty.stdout + empty.stderr);
    assert.match(empty.stderr, /Crier answered 400/);

    const shown = await crier('evergreen', 'show', id);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^ITEM\s+USED\s+LAST\s+TEXT$/m);
    assert.equal(shown.stdout.split('\n').filter((line) => /favourite|One more/.test(line) && !line.startsWith('evergreen')).length, 3);
    const listed = await crier('evergreen', 'list');
    assert.match(listed.stdout, new RegExp(`^${id}\\s+active\\s+best of\\s+every 7d\\s+14d\\s+3\\s`, 'm'));

    const paused = await crier('evergreen', 'pause', id);
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal((await api(`/v1/evergreen-collections/${id}`, sandbox.key)).body.data.status, 'paused');
    const deleted = await crier('evergreen', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal((await api(`/v1/evergreen-collections/${id}`, sandbox.key)).status, 404);
  });

  test('recurrences update changes the text of the occurrences to come', async () => {
    const account = accountOf('bluesky');
    const created = await crier('recurrences', 'create', '--to', account.username, '--text', 'Old words', '--every', '2d', '--start', '+2h');
    assert.equal(created.code, 0, created.stderr);
    const id = idIn(created.stdout, /^recurrence (\S+) /m);
    const updated = await crier('recurrences', 'update', id, '--text', 'New words');
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /say "New words" \(one already created keeps its text\)$/m);
    assert.deepEqual((await api(`/v1/recurrences/${id}`, sandbox.key)).body.data.containers.map((c: any) => c.content), ['New words']);
  });
});
