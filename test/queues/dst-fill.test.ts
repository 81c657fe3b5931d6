// A queue filled across both daylight-saving changes, through the create path itself (posts/create.ts:
// the accounts' slot lock, the held slots read from PostgreSQL, the 30-day window) with its clock
// pinned to the days around each change (Europe/Paris, 2027: 28 March 02:00 -> 03:00, 31 October
// 03:00 -> 02:00): no zone changes its offset within 30 days of every date a test may run on, so the
// API over HTTP could not be made to cross one. Posts racing for slots get distinct ones, in order;
// local times hold; the slot that does not exist is skipped, the one that happens twice taken once;
// past the window the create is refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPostWriter } from '../../src/posts/create.ts';
import { parseCreateBody } from '../../src/posts/validate.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let writer: ReturnType<typeof createPostWriter>;
const FETCH = { allowLoopback: false, isOwnMedia: () => false };
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  writer = createPostWriter(server.db);
});
after(() => server.close());

async function parisQueue(times: string[]): Promise<TestAccount> {
  const account = await server.addAccount(org, 'linkedin');
  const res = await server.request('POST', '/v1/queues', {
    key: org.key, body: { socialAccountId: account.id, timeZone: 'Europe/Paris', slots: DAYS.flatMap((day) => times.map((time) => ({ day, time }))) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return account;
}

/** A create asking for the next free slot, as POST /v1/posts makes it, at the clock `now`. */
async function nextFree(account: TestAccount, now: Date, content: string) {
  const body = { accounts: [account.id], content, scheduledAt: 'next-free-slot' };
  try {
    const outcome = await writer.submit({ orgId: org.orgId, key: undefined, body, parsed: parseCreateBody(body, now, FETCH), now });
    return { at: (outcome.body as { post: { scheduledAt: string } }).post.scheduledAt };
  } catch (error) {
    return { refused: error as { status: number; details: { field: string; message: string }[] } };
  }
}

test('spring forward: six posts racing fill 02:30 and 09:00 in order; 02:30 on the 28th does not exist and is skipped; 09:00 moves from 08:00Z to 07:00Z', async () => {
  const account = await parisQueue(['02:30', '09:00']);
  const now = new Date('2027-03-26T12:00Z');
  const made = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => nextFree(account, now, `spring ${n}`)));
  assert.deepEqual(made.map((m) => m.at).sort(), [
    '2027-03-27T01:30:00.000Z', // Saturday 02:30 CET
    '2027-03-27T08:00:00.000Z', // Saturday 09:00 CET
    '2027-03-28T07:00:00.000Z', // Sunday 09:00 CEST (02:30 skipped: the clocks jump from 02:00 to 03:00)
    '2027-03-29T00:30:00.000Z', // Monday 02:30 CEST
    '2027-03-29T07:00:00.000Z',
    '2027-03-30T00:30:00.000Z',
  ]);
});

test('fall back: 02:30 on the 31st happens twice and is taken once, the first time (CEST); 09:00 moves from 07:00Z to 08:00Z', async () => {
  const account = await parisQueue(['02:30', '09:00']);
  const now = new Date('2027-10-30T03:00Z');
  const made = [];
  for (let n = 1; n <= 4; n++) made.push((await nextFree(account, now, `autumn ${n}`)).at);
  assert.deepEqual(made, [
    '2027-10-30T07:00:00.000Z', // Saturday 09:00 CEST
    '2027-10-31T00:30:00.000Z', // Sunday 02:30, the first of the two (CEST, +02:00)
    '2027-10-31T08:00:00.000Z', // Sunday 09:00 CET
    '2027-11-01T01:30:00.000Z', // Monday 02:30 CET
  ]);
});

test('past the 30-day window the next create is refused with the next free slot named, and nothing is stored', async () => {
  const account = await parisQueue(['09:00']);
  const now = new Date('2027-03-20T12:00Z');
  const made = [];
  for (let n = 1; n <= 30; n++) made.push((await nextFree(account, now, `window ${n}`)).at);
  assert.equal(made[0], '2027-03-21T08:00:00.000Z');
  assert.equal(made[29], '2027-04-19T07:00:00.000Z', 'the 30th: 09:00 CEST, within 30 days of the clock');
  assert.equal(new Set(made).size, 30);
  const refused = await nextFree(account, now, 'one too many');
  assert.equal(refused.refused?.status, 400);
  assert.deepEqual(refused.refused?.details, [{
    field: 'scheduledAt',
    message: '"next-free-slot": the next free slot, 2027-04-20T07:00:00.000Z, is more than 30 days ahead, beyond the scheduling window',
  }]);
  const { rows } = await server.db.query("SELECT count(*)::int AS n FROM posts p JOIN containers c ON c.post_id = p.id WHERE p.org_id = $1 AND c.content = 'one too many'", [org.orgId]);
  assert.equal(rows[0].n, 0);
});
