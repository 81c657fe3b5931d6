// The loop of the runners over due rows (background/due-rows.ts), on a real table (recurrences): the
// due rows are taken, the others not; a turn that throws is postponed a minute and does not stop the
// others; a NOTIFY on the channel wakes the loop for a row made due later.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDueRowsRunner, takeDue } from '../../src/background/due-rows.ts';
import { decodeId } from '../../src/core/ids.ts';
import { createLogger } from '../../src/log.ts';
import { createRecurrence } from '../../src/recurrences/manage.ts';
import { RECURRENCES_CHANNEL } from '../../src/recurrences/store.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
});
after(() => server.close());

const FETCH = { allowLoopback: false, isOwnMedia: () => false };
const NOW = new Date('2031-03-01T12:00Z');

/** A recurrence row of this org, its materialize_at set to `at`. */
async function rowDueAt(at: Date): Promise<number> {
  const { recurrence } = await createRecurrence(server.db, org.orgId, { accounts: [account.id], content: 'due rows', every: { days: 1 }, startAt: '2031-03-02T09:00Z' }, new Date('2031-02-28T12:00Z'), FETCH);
  const id = decodeId(recurrence.id)!;
  await server.db.query('UPDATE recurrences SET materialize_at = $2 WHERE id = $1', [id, at]);
  return id;
}
const materializeAt = async (id: number) => (await server.db.query('SELECT materialize_at FROM recurrences WHERE id = $1', [id])).rows[0].materialize_at as Date;

test('takeDue takes the rows due at the clock, in materialize_at order, and counts the turns written', async () => {
  await server.db.query("UPDATE recurrences SET status = 'paused'");
  const late = await rowDueAt(new Date(NOW.getTime() - 60_000));
  const early = await rowDueAt(new Date(NOW.getTime() - 120_000));
  const future = await rowDueAt(new Date(NOW.getTime() + 60_000));
  const taken: number[] = [];
  const written = await takeDue(server.db, { table: 'recurrences', take: async (id) => (taken.push(id), id === early) }, NOW);
  assert.deepEqual(taken, [early, late]);
  assert.equal(written, 1);
  assert.ok(!taken.includes(future));
  await server.db.query('UPDATE recurrences SET status = $2 WHERE id = ANY($1)', [[late, early, future], 'paused']);
});

test('the runner: a turn that throws is postponed a minute, the next row is still taken; a NOTIFY wakes it for a row made due', async () => {
  const failing = await rowDueAt(new Date(NOW.getTime() - 1000));
  const fine = await rowDueAt(new Date(NOW.getTime() - 500));
  const taken: number[] = [];
  const runner = startDueRowsRunner(server.db, createLogger('silent'), {
    table: 'recurrences', label: 'due rows test', channel: RECURRENCES_CHANNEL,
    take: async (id) => {
      taken.push(id);
      if (id === failing) throw new Error('this turn fails');
      await server.db.query("UPDATE recurrences SET status = 'paused' WHERE id = $1", [id]);
      return true;
    },
  }, { now: () => NOW, pollMs: 60_000 });
  try {
    await until(() => (taken.includes(fine) ? true : undefined), 10_000, 'the second row taken');
    assert.equal((await materializeAt(failing)).toISOString(), new Date(NOW.getTime() + 60_000).toISOString(), 'postponed a minute from the clock');
    const later = await rowDueAt(new Date(NOW.getTime() + 3_600_000));
    await server.db.query('UPDATE recurrences SET materialize_at = $2 WHERE id = $1', [later, new Date(NOW.getTime() - 1)]);
    await server.db.query(`SELECT pg_notify('${RECURRENCES_CHANNEL}', '')`);
    await until(() => (taken.includes(later) ? true : undefined), 10_000, 'the row made due, after the NOTIFY');
  } finally {
    await runner.stop();
    await server.db.query("UPDATE recurrences SET status = 'paused' WHERE org_id = $1", [org.orgId]);
  }
});
