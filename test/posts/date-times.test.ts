// Every date-time Crier accepts goes through one parser: scheduledAt on POST and PATCH /v1/posts, the
// created_*/scheduled_* filters of GET /v1/posts, from/to of GET /v1/usage. The same ISO 8601 forms
// are accepted everywhere, impossible or out-of-range values are a 400 with one wording (never a 500,
// never a silently shifted date), and PATCH keeps a draft a draft unless told otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { DATE_OR_DATE_TIME_MESSAGE, DATE_TIME_MESSAGE } from '../../src/validation/date-time.ts';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'dates_x');
});
after(() => server.close());

const create = (body: Record<string, unknown>) => server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'dated', ...body } });
const patch = (id: string, body: unknown) => server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body });
const getPost = async (id: string) => (await server.request('GET', `/v1/posts/${id}`, { key: org.key })).body.post;

/** A time `days` ahead, on a whole minute, so it can be written without seconds. */
function minuteAhead(days: number): Date {
  const at = new Date(Date.now() + days * 86400_000);
  at.setUTCSeconds(0, 0);
  return at;
}

/** `at` written as local time at `offsetMinutes` from UTC, e.g. 2026-11-26T08:09+02:00. */
function withOffset(at: Date, offsetMinutes: number, colon = true): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 16);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${local}${sign}${hh}${colon ? ':' : ''}${mm}`;
}

/** When the post's targets are due (the targets table is the publishing queue); none for a draft. */
async function dueFor(postId: string): Promise<number[]> {
  const { rows } = await server.db.query('SELECT due_at FROM targets WHERE post_id = $1 AND due_at IS NOT NULL ORDER BY id', [decodeId(postId)]);
  return rows.map((r) => r.due_at.getTime());
}

// Impossible calendar values, a missing zone, prose, and instants outside 0001-9999.
const REFUSED = [
  '2026-02-30T10:00:00Z', '2026-04-31T10:00:00Z', '2027-02-29T10:00:00Z', '2026-12-31T24:00:00Z',
  '2026-12-31T23:60:00Z', '2026-12-31T23:59:60Z', '2026-11-26T06:09:00+24:00', '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '2026-11-26T06:09:00', '2026-11-26T06Z',
  'December 1, 2026 10:00 Z', '1 Dec 2026 10:00:00 GMT', '2026-11-26',
];

describe('scheduledAt on POST /v1/posts', () => {
  test('the ISO 8601 forms a client sends are accepted: no seconds, an offset with or without colon, lowercase t and z', async () => {
    const at = minuteAhead(2);
    const minute = at.toISOString().slice(0, 16);
    for (const form of [`${minute}Z`, `${minute}:00.000Z`, `${minute}:00.000999Z`, withOffset(at, 120), withOffset(at, -330, false), `${minute.replace('T', 't')}z`]) {
      const res = await create({ scheduledAt: form });
      assert.equal(res.status, 200, `${form}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.post.scheduledAt, at.toISOString(), form);
      assert.deepEqual(await dueFor(res.body.post.id), [at.getTime()], form);
    }
  });

  test('a local time with an IANA zone (RFC 9557) is that zone\'s time; a time the zone skips is a 400 with the same wording', async () => {
    const at = minuteAhead(2);
    const kolkata = `${new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 16)}[Asia/Kolkata]`;
    const res = await create({ scheduledAt: kolkata });
    assert.equal(res.status, 200, `${kolkata}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.post.scheduledAt, at.toISOString());
    assert.deepEqual(await dueFor(res.body.post.id), [at.getTime()]);
    const stored = await countRows(server.db, 'posts', org.orgId);
    // 29 March 2026, Paris: clocks went from 02:00 to 03:00, so 02:30 never happened there.
    for (const value of ['2026-03-29T02:30[Europe/Paris]', '2026-11-26T09:00[Mars/Olympus]', '2026-11-26T09:00+05:00[Europe/Paris]']) {
      const refused = await create({ scheduledAt: value });
      assert.equal(refused.status, 400, `${value}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(refused.body.details, [{ field: 'scheduledAt', message: DATE_TIME_MESSAGE }], value);
    }
    assert.equal(await countRows(server.db, 'posts', org.orgId), stored);
  });

  test('29 February of a leap year is a date; a past one publishes at once', async () => {
    const res = await create({ scheduledAt: '2024-02-29T10:00Z' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.post.scheduledAt, '2024-02-29T10:00:00.000Z');
  });

  test('impossible or out-of-range date-times are a 400 with one wording, and nothing is stored', async () => {
    const stored = await countRows(server.db, 'posts', org.orgId);
    for (const value of REFUSED) {
      const res = await create({ scheduledAt: value });
      assert.equal(res.status, 400, `${value}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.details, [{ field: 'scheduledAt', message: DATE_TIME_MESSAGE }], value);
    }
    assert.equal(await countRows(server.db, 'posts', org.orgId), stored);
  });
});

describe('PATCH /v1/posts/:id', () => {
  test('scheduledAt is read by the same parser: Feb 30, prose and leap seconds are 400 and change nothing', async () => {
    const at = minuteAhead(5);
    const created = (await create({ scheduledAt: at.toISOString() })).body.post;
    for (const value of REFUSED) {
      const res = await patch(created.id, { scheduledAt: value });
      assert.equal(res.status, 400, `${value}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.details, [{ field: 'scheduledAt', message: DATE_TIME_MESSAGE }], value);
    }
    const after = await getPost(created.id);
    assert.equal(after.scheduledAt, at.toISOString());
    assert.deepEqual(await dueFor(created.id), [at.getTime()], 'still due at the original time');
  });

  test('scheduledAt without seconds or with an offset is accepted, within the same 30-day window', async () => {
    const created = (await create({ scheduledAt: minuteAhead(5).toISOString() })).body.post;
    const at = minuteAhead(3);
    const res = await patch(created.id, { scheduledAt: withOffset(at, -300) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.post.scheduledAt, at.toISOString());
    const far = await patch(created.id, { scheduledAt: `${minuteAhead(31).toISOString().slice(0, 16)}Z` });
    assert.equal(far.status, 400);
    assert.deepEqual(far.body.details, [{ field: 'scheduledAt', message: 'must be at most 30 days in the future' }]);
  });

  test('rescheduling a draft keeps it a draft; isDraft false then queues it at that time', async () => {
    const created = (await create({ isDraft: true })).body.post;
    const at = minuteAhead(3);
    const moved = await patch(created.id, { scheduledAt: at.toISOString() });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual([moved.body.post.isDraft, moved.body.post.scheduled, moved.body.post.scheduledAt], [true, false, at.toISOString()]);
    assert.deepEqual(await dueFor(created.id), [], 'a draft is never queued');
    const live = await patch(created.id, { isDraft: false });
    assert.equal(live.status, 200, JSON.stringify(live.body));
    assert.deepEqual([live.body.post.isDraft, live.body.post.scheduled, live.body.post.scheduledAt], [false, true, at.toISOString()]);
    assert.deepEqual(await dueFor(created.id), [at.getTime()]);
  });

  test('unknown keys are ignored with a warning; a wrong isDraft type is a 400', async () => {
    const created = (await create({ isDraft: true })).body.post;
    const res = await patch(created.id, { isDraft: true, content: 'new text' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.warnings, ['Unknown key "content" was ignored; only "scheduledAt" and "isDraft" can be changed']);
    const bad = await patch(created.id, { isDraft: 'no' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: { field: string }) => d.field), ['isDraft']);
  });
});

describe('GET /v1/posts range filters', () => {
  let early: string; // created 2020-02-29T23:30Z
  let late: string; // created 2020-03-01T00:30Z

  before(async () => {
    early = (await create({ content: 'early' })).body.post.id;
    late = (await create({ content: 'late' })).body.post.id;
    await server.db.query("UPDATE posts SET created_at = '2020-02-29T23:30:00Z' WHERE id = $1", [decodeId(early)]);
    await server.db.query("UPDATE posts SET created_at = '2020-03-01T00:30:00Z' WHERE id = $1", [decodeId(late)]);
  });

  const ids = async (query: string) => {
    const res = await server.request('GET', `/v1/posts?${query}`, { key: org.key });
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    return res.body.posts.map((p: { id: string }) => p.id);
  };

  test('a plain date is midnight UTC; date-times may omit seconds or carry an offset', async () => {
    assert.deepEqual(await ids('created_after=2020-02-01&created_before=2020-03-01'), [early]);
    assert.deepEqual(await ids('created_after=2020-03-01&created_before=2020-03-02'), [late]);
    assert.deepEqual(await ids('created_after=2020-02-29T23:00Z&created_before=2020-03-01T01:00Z'), [late, early]);
    assert.deepEqual(await ids(`created_after=${encodeURIComponent('2020-03-01T01:00+01:00')}&created_before=2020-03-02`), [late]);
  });

  test('a bound may name an IANA zone: midnight in New York is 05:00Z, so only the later post is before it', async () => {
    assert.deepEqual(await ids(`created_after=2020-02-29&created_before=${encodeURIComponent('2020-02-29T19:00[America/New_York]')}`), [early]);
    assert.deepEqual(await ids(`created_after=${encodeURIComponent('2020-02-29T19:00[America/New_York]')}&created_before=2020-03-02`), [late]);
  });

  test('out-of-range and impossible bounds are a 400 naming the parameter, never a 500', async () => {
    for (const param of ['created_after', 'created_before', 'scheduled_after', 'scheduled_before']) {
      for (const value of ['0000-01-01T00:00:00Z', '0000-01-01', '2026-12-31T23:59:60Z', '2026-02-30', '2026-02-30T00:00:00Z', '10000-01-01', 'yesterday']) {
        const res = await server.request('GET', `/v1/posts?${param}=${encodeURIComponent(value)}`, { key: org.key });
        assert.equal(res.status, 400, `${param}=${value}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body.details, [{ field: param, message: DATE_OR_DATE_TIME_MESSAGE }], `${param}=${value}`);
      }
    }
  });
});

describe('GET /v1/usage from and to', () => {
  test('out-of-range and impossible bounds are a 400 naming the parameter, never a 500', async () => {
    for (const param of ['from', 'to']) {
      for (const value of ['2026-12-31T23:59:60Z', '0000-01-01T00:00:00Z', '2026-02-30', '9999-12-31T23:59:59-01:00']) {
        const res = await server.request('GET', `/v1/usage?${param}=${encodeURIComponent(value)}`, { key: org.key });
        assert.equal(res.status, 400, `${param}=${value}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body.details, [{ field: param, message: DATE_OR_DATE_TIME_MESSAGE }], `${param}=${value}`);
      }
    }
  });

  test('a month given as two plain dates is answered in UTC', async () => {
    const res = await server.request('GET', '/v1/usage?from=2026-11-01&to=2026-12-01T00:00Z', { key: org.key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.data.from, res.body.data.to], ['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z']);
  });
});
