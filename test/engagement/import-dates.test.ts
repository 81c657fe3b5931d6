// An import's since/until are read by the one date-time parser (validation/date-time.ts), as the
// posts' scheduledAt is: a day no calendar has (Feb 30, read as 2 March before), year 0000 and a
// date-time without a time zone are 400s naming the field, never a silently different instant.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'x');
});
after(() => server.close());

const importWith = (body: Record<string, unknown>) => server.request('POST', `/v1/social-accounts/${account.id}/imports`, { key: org.key, body });

test('dates no calendar has, and date-times without a time zone, are 400s naming the field', async () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ since: '2026-02-30' }, ['since']],
    [{ until: '2026-02-30T10:00:00Z' }, ['until']],
    [{ since: '0000-01-01' }, ['since']],
    [{ until: '0000-06-01T00:00:00Z' }, ['until']],
    [{ since: '2026-04-31', until: '2026-13-01' }, ['since', 'until']],
    [{ since: '2026-02-28T10:00:00' }, ['since']],
    [{ since: '2026-02-28T24:00:00Z' }, ['since']],
    [{ since: 20260228 }, ['since']],
  ];
  for (const [body, fields] of cases) {
    const res = await importWith(body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.code, 'validation_error');
    assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), fields, JSON.stringify(body));
    assert.match(res.body.details[0].message, /ISO 8601.*time zone.*0001-9999/);
  }
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE org_id = $1', [org.orgId]);
  assert.equal(rows[0]!.n, 0, 'no job was queued');
});

test('a real day is its midnight UTC, a date-time keeps its offset, and early years stay early', async () => {
  const res = await importWith({ since: '2026-02-28', until: '2026-03-01T00:30:00+01:00' });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.deepEqual([res.body.data.since, res.body.data.until], ['2026-02-28T00:00:00.000Z', '2026-02-28T23:30:00.000Z']);
  const leap = await importWith({ since: '0099-02-28', until: '2024-02-29T12:00:00Z' });
  assert.equal(leap.status, 202, JSON.stringify(leap.body));
  assert.deepEqual([leap.body.data.since, leap.body.data.until], ['0099-02-28T00:00:00.000Z', '2024-02-29T12:00:00.000Z']);
});
