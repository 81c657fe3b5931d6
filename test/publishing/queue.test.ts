// The queue's SQL under real races, on a real database: claims from many connections at once never
// take a target twice, and PATCH or DELETE racing a claim either gets the target before the claim
// (which then leaves it alone) or finds it being published (409) — never a target rescheduled or
// cancelled under a worker, never a deadlock. The claims are made with the engine's own statement
// (queue.ts) on connections of their own, the PATCHes and DELETEs over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPool, type Db } from '../../src/db/pool.ts';
import { decodeId } from '../../src/core/ids.ts';
import { claimDue, msUntilNextDue, registerWorker, removeWorker, renewWorker, sweepDeadWorkers, type ClaimRow } from '../../src/publishing/queue.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let claimers: Db;
let workerId: number;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'race_x');
  claimers = createPool(server.databaseUrl, 8);
  workerId = await registerWorker(server.db);
});
after(async () => {
  await claimers.end();
  await server.close();
});

async function createDue(count: number, extra: object = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: `race ${Date.now()} ${i}`, ...extra } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ids.push(res.body.post.id);
  }
  return ids;
}

/**
 * Claims from `connections` concurrent loops, `batch` at a time, until a claim comes back empty
 * `idleRounds` times; starts after `delayMs`.
 */
async function claimAll(connections: number, batch: number, idleRounds = 3, delayMs = 0): Promise<ClaimRow[]> {
  const claimed: ClaimRow[] = [];
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  await Promise.all(Array.from({ length: connections }, async () => {
    for (let idle = 0; idle < idleRounds;) {
      const rows = await claimDue(claimers, workerId, batch);
      claimed.push(...rows);
      idle = rows.length ? 0 : idle + 1;
    }
  }));
  return claimed;
}

const raw = (ids: string[]) => ids.map((id) => decodeId(id)!);

describe('claims', () => {
  test('8 connections claiming 200 due targets at once: each target is claimed exactly once, with one attempt', async () => {
    const ids = await createDue(200);
    const claimed = await claimAll(8, 7);
    const mine = claimed.filter((c) => raw(ids).includes(c.post_id));
    assert.equal(mine.length, 200);
    assert.equal(new Set(mine.map((c) => c.target_id)).size, 200, 'no target claimed twice');
    const { rows } = await server.db.query<{ status: string; attempts: number }>(
      `SELECT t.status, (SELECT count(*)::int FROM attempts a WHERE a.target_id = t.id) AS attempts FROM targets t WHERE t.post_id = ANY($1::bigint[])`,
      [raw(ids)],
    );
    assert.ok(rows.every((r) => r.status === 'publishing' && r.attempts === 1), JSON.stringify(rows.filter((r) => r.status !== 'publishing' || r.attempts !== 1)));
    assert.deepEqual(mine[0]!.containers, [{ content: mine[0]!.containers[0]!.content, media: [] }], 'the claim carries what publishing needs');
  });

  test('a target due later is not claimed before its time, and the time until it is due is known', async () => {
    const [id] = await createDue(1, { scheduledAt: new Date(Date.now() + 60_000).toISOString() });
    const claimed = await claimAll(2, 10, 1);
    assert.equal(claimed.filter((c) => c.post_id === decodeId(id!)).length, 0);
    const ms = await msUntilNextDue(server.db);
    assert.ok(ms !== undefined && ms > 55_000 && ms <= 60_000, String(ms));
  });

  test("a dead worker's targets are due again after its lease, and the next claim supersedes its attempts", async () => {
    const dead = await registerWorker(server.db);
    await renewWorker(server.db, workerId); // the claims of the other tests stay with a live worker
    const ids = await createDue(3);
    const first = (await claimDue(server.db, dead, 10)).filter((c) => raw(ids).includes(c.post_id));
    assert.equal(first.length, 3);
    assert.equal(await sweepDeadWorkers(server.db, 30, workerId), 0, 'alive: nothing is handed over');
    await server.db.query("UPDATE publish_workers SET alive_at = now() - interval '31 seconds' WHERE id = $1", [dead]);
    assert.equal(await sweepDeadWorkers(server.db, 30, dead), 0, 'a worker whose lease lapsed while it was starved of CPU does not sweep its own targets');
    assert.equal(await sweepDeadWorkers(server.db, 30, workerId), 3);
    const again = (await claimDue(server.db, workerId, 10)).filter((c) => raw(ids).includes(c.post_id));
    assert.deepEqual(again.map((c) => c.previous_attempt_id).sort(), first.map((c) => c.attempt_id).sort());
    const outcomes = await server.db.query('SELECT outcome FROM attempts WHERE id = ANY($1::bigint[])', [first.map((c) => c.attempt_id)]);
    assert.deepEqual(outcomes.rows.map((r) => r.outcome), ['superseded', 'superseded', 'superseded']);
    await removeWorker(server.db, dead);
  });
});

describe('PATCH and DELETE racing claims', () => {
  // Each round: 40 due posts; claims from 2 connections, one target at a time, and 40 PATCHes (or
  // DELETEs) over HTTP, all at once, the claims starting a little later each round so that both sides
  // win some. Whatever the interleaving, each post's answer must match what happened to its target.
  const seen = new Set<number>();
  for (const round of [1, 2, 3, 4]) {
    test(`round ${round}: PATCH scheduledAt either moves a target no claim took (200) or finds it claimed (409)`, async () => {
      const ids = await createDue(40);
      const later = new Date(Date.now() + 3600_000).toISOString();
      const [claimed, answers] = await Promise.all([
        claimAll(2, 1, 3, 4 * round),
        Promise.all(ids.map((id) => server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { scheduledAt: later } }))),
      ]);
      const claimedPosts = new Set(claimed.map((c) => c.post_id));
      for (const res of answers) seen.add(res.status);
      const targets = await targetsOf(ids);
      ids.forEach((id, i) => {
        const res = answers[i]!;
        const target = targets.get(decodeId(id)!)!;
        if (res.status === 200) {
          assert.ok(!claimedPosts.has(decodeId(id)!), `${id}: rescheduled, so no claim may have taken it`);
          assert.deepEqual([target.status, target.attempts, target.due_at?.toISOString()], ['pending', 0, later]);
        } else {
          assert.equal(res.status, 409, JSON.stringify(res.body));
          assert.equal(res.body.code, 'post_publishing');
          assert.ok(claimedPosts.has(decodeId(id)!), `${id}: 409, so a claim took it`);
          assert.deepEqual([target.status, target.attempts, target.due_at], ['publishing', 1, null]);
        }
      });
    });

    test(`round ${round}: DELETE either cancels a target no claim took or finds it claimed (409)`, async () => {
      const ids = await createDue(40);
      const [claimed, answers] = await Promise.all([
        claimAll(2, 1, 3, 4 * round),
        Promise.all(ids.map((id) => server.request('DELETE', `/v1/posts/${id}`, { key: org.key }))),
      ]);
      const claimedPosts = new Set(claimed.map((c) => c.post_id));
      for (const res of answers) seen.add(res.status);
      const targets = await targetsOf(ids);
      ids.forEach((id, i) => {
        const res = answers[i]!;
        const target = targets.get(decodeId(id)!)!;
        if (res.status === 200) {
          assert.equal(res.body.outcome, 'cancelled');
          assert.ok(!claimedPosts.has(decodeId(id)!), `${id}: cancelled, so no claim may have taken it`);
          assert.deepEqual([target.status, target.attempts, target.due_at], ['cancelled', 0, null]);
        } else {
          assert.equal(res.status, 409, JSON.stringify(res.body));
          assert.ok(claimedPosts.has(decodeId(id)!), `${id}: 409, so a claim took it`);
          assert.deepEqual([target.status, target.attempts], ['publishing', 1]);
        }
      });
    });
  }

  test('the rounds raced for real: some PATCHes and DELETEs won and some claims did', () => {
    assert.deepEqual([...seen].sort(), [200, 409]);
  });
});

async function targetsOf(ids: string[]): Promise<Map<number, { status: string; attempts: number; due_at: Date | null }>> {
  const { rows } = await server.db.query<{ post_id: number; status: string; attempts: number; due_at: Date | null }>(
    `SELECT t.post_id, t.status, t.due_at, (SELECT count(*)::int FROM attempts a WHERE a.target_id = t.id) AS attempts
       FROM targets t WHERE t.post_id = ANY($1::bigint[])`,
    [raw(ids)],
  );
  return new Map(rows.map((r) => [r.post_id, r]));
}
