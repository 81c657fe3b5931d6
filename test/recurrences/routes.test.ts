// /v1/recurrences over real HTTP: create (the post body judged as a post, the rule field by field),
// list, get, pause and resume, delete, isolation between organizations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let account: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  other = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
});
after(() => server.close());

const api = (method: string, path: string, body?: unknown, key = org.key) => server.request(method, path, { key, body });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('create', () => {
  test('201: the body as sent with accounts as ids, the rule, and the first occurrence next; GET and the list show the same', async () => {
    const startAt = inAnHour();
    const res = await api('POST', '/v1/recurrences', {
      accounts: [account.username], content: 'Weekly digest', every: { days: 2 }, startAt, count: 3,
      variations: [{ content: 'Weekly digest, again' }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const data = res.body.data;
    assert.equal(data.status, 'active');
    assert.deepEqual(data.accounts, [account.id]);
    assert.equal(data.content, 'Weekly digest');
    assert.deepEqual(data.every, { days: 2, hours: 0 });
    assert.equal(data.startAt, startAt);
    assert.equal(data.count, 3);
    assert.equal(data.until, null);
    assert.deepEqual(data.variations, [{ content: 'Weekly digest, again' }]);
    assert.equal(data.nextOccurrenceAt, startAt);
    assert.deepEqual(data.occurrences, []);
    const read = await api('GET', `/v1/recurrences/${data.id}`);
    assert.deepEqual(read.body, { success: true, data });
    const list = await api('GET', '/v1/recurrences');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((r: any) => r.id === data.id));
  });

  test('weekly: the zone as Intl names it, the first occurrence at the local time', async () => {
    const res = await api('POST', '/v1/recurrences', {
      accounts: [account.id], content: 'Monday note', weekly: { days: ['monday'], time: '09:00', timeZone: 'europe/paris' }, until: new Date(Date.now() + 60 * 86_400_000).toISOString(),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.weekly.timeZone, 'Europe/Paris');
    const next = new Date(res.body.data.nextOccurrenceAt);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(next);
    assert.equal(local, 'Monday 09:00');
    assert.ok(next.getTime() > Date.now() && next.getTime() <= Date.now() + 7 * 86_400_000);
  });

  test('bad rules and post bodies: 400 with per-field details, nothing stored', async () => {
    const post = { accounts: [account.id], content: 'Hello' };
    const cases: [unknown, { field: string; message: RegExp }[]][] = [
      [post, [{ field: 'every', message: /exactly one of "every"/ }]],
      [{ ...post, every: { days: 1 }, weekly: { days: ['monday'], time: '09:00', timeZone: 'UTC' } }, [{ field: 'every', message: /exactly one/ }]],
      [{ ...post, every: { minutes: 30 } }, [{ field: 'every.minutes', message: /not a unit/ }]],
      [{ ...post, every: { hours: 0 } }, [{ field: 'every', message: /at least 1 hour/ }]],
      [{ ...post, every: { days: 1.5 } }, [{ field: 'every.days', message: /whole number/ }]],
      [{ ...post, weekly: { days: ['funday', 'monday', 'monday'], time: '25:00', timeZone: 'Mars/Olympus' } }, [
        { field: 'weekly.days[0]', message: /must be one of "monday"/ },
        { field: 'weekly.days[2]', message: /repeats weekly.days\[1\]/ },
        { field: 'weekly.time', message: /HH:MM/ },
        { field: 'weekly.timeZone', message: /not an IANA time zone/ },
      ]],
      [{ ...post, weekly: { days: ['monday'], time: '09:00', timeZone: '+02:00' } }, [{ field: 'weekly.timeZone', message: /UTC offset/ }]],
      [{ ...post, every: { days: 1 }, startAt: '2020-01-01T00:00Z' }, [{ field: 'startAt', message: /past/ }]],
      [{ ...post, every: { days: 1 }, startAt: 'tomorrow' }, [{ field: 'startAt', message: /ISO 8601/ }]],
      [{ ...post, every: { days: 1 }, count: 0 }, [{ field: 'count', message: /1 to 1000/ }]],
      [{ ...post, every: { days: 1 }, startAt: inAnHour(), until: new Date().toISOString() }, [{ field: 'until', message: /before "startAt"/ }]],
      [{ ...post, every: { days: 1 }, scheduledAt: inAnHour(), isDraft: true }, [
        { field: 'scheduledAt', message: /set by the rule/ }, { field: 'isDraft', message: /no drafts/ },
      ]],
      [{ accounts: [account.id], every: { days: 1 } }, [{ field: 'content', message: /one of "content" or "containers"/ }]],
      [{ ...post, every: { days: 1 }, variations: [{ content: '' }, { text: 'x' }] }, [
        { field: 'variations[0].content', message: /must not be empty/ }, { field: 'variations[1]', message: /nothing else/ },
      ]],
      [{ ...post, weekly: { days: ['monday'], time: '09:00', timeZone: 'UTC' }, startAt: '2031-01-07T00:00Z', until: '2031-01-12T00:00Z' }, [
        { field: 'until', message: /no occurrence/ },
      ]],
    ];
    const before = await countRows(server.db, 'recurrences', org.orgId);
    for (const [body, expected] of cases) {
      const res = await api('POST', '/v1/recurrences', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_error');
      for (const { field, message } of expected) {
        assert.ok(res.body.details.some((d: any) => d.field === field && message.test(d.message)), `${JSON.stringify(body)}: no ${field} ~ ${message} in ${JSON.stringify(res.body.details)}`);
      }
    }
    assert.equal(await countRows(server.db, 'recurrences', org.orgId), before);
  });

  test("another organization's account is no account: 400 no_account_resolved", async () => {
    const foreign = await server.addAccount(other, 'bluesky');
    const res = await api('POST', '/v1/recurrences', { accounts: [foreign.id], content: 'Hi', every: { days: 1 } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'no_account_resolved');
  });
});

describe('pause, resume, delete, isolation', () => {
  test('PATCH pauses and resumes; other fields and statuses are 400 per field', async () => {
    const { body } = await api('POST', '/v1/recurrences', { accounts: [account.id], content: 'Tip', every: { hours: 6 }, startAt: inAnHour() });
    const id = body.data.id;
    const paused = await api('PATCH', `/v1/recurrences/${id}`, { status: 'paused' });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.data.status, 'paused');
    assert.equal((await api('GET', `/v1/recurrences/${id}`)).body.data.status, 'paused');
    const bad = await api('PATCH', `/v1/recurrences/${id}`, { status: 'stopped', every: { days: 1 }, accounts: [] });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: any) => d.field).sort(), ['accounts', 'every', 'status']);
    assert.equal((await api('PATCH', `/v1/recurrences/${id}`, {})).status, 400, 'nothing to change');
    const resumed = await api('PATCH', `/v1/recurrences/${id}`, { status: 'active' });
    assert.equal(resumed.body.data.status, 'active');
  });

  test('PATCH changes the content to come, judged as on create; a bad content or variation is a 400 naming it and changes nothing', async () => {
    const { body } = await api('POST', '/v1/recurrences', { accounts: [account.id], content: 'Old tip', every: { hours: 6 }, startAt: inAnHour(), variations: [{ content: 'Old tip, again' }] });
    const id = body.data.id;
    const changed = await api('PATCH', `/v1/recurrences/${id}`, { content: 'New tip', variations: [{ content: 'New tip, again' }, { content: 'New tip, thrice' }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.content, changed.body.data.variations, changed.body.data.status],
      ['New tip', [{ content: 'New tip, again' }, { content: 'New tip, thrice' }], 'active']);
    const threaded = await api('PATCH', `/v1/recurrences/${id}`, { containers: [{ content: 'Part one' }, { content: 'Part two' }] });
    assert.equal(threaded.status, 200, JSON.stringify(threaded.body));
    assert.deepEqual([threaded.body.data.content, threaded.body.data.containers?.length], [undefined, 2], 'containers replace content');
    for (const [patch, field] of [[{ containers: [] }, 'containers'], [{ variations: [{ content: '' }] }, 'variations[0].content'], [{ variations: [{ title: 'no' }] }, 'variations[0]']] as const) {
      const bad = await api('PATCH', `/v1/recurrences/${id}`, patch);
      assert.equal(bad.status, 400, JSON.stringify(patch));
      assert.ok(bad.body.details.some((d: any) => d.field === field), `${JSON.stringify(patch)}: ${JSON.stringify(bad.body.details)}`);
    }
    assert.deepEqual((await api('GET', `/v1/recurrences/${id}`)).body.data.containers.map((c: any) => c.content), ['Part one', 'Part two'], 'unchanged by the refusals');
  });

  test('another organization sees none of it: 404 on get, patch and delete; not in its list', async () => {
    const { body } = await api('POST', '/v1/recurrences', { accounts: [account.id], content: 'Mine', every: { days: 1 }, startAt: inAnHour() });
    const id = body.data.id;
    assert.equal((await api('GET', `/v1/recurrences/${id}`, undefined, other.key)).status, 404);
    assert.equal((await api('PATCH', `/v1/recurrences/${id}`, { status: 'paused' }, other.key)).status, 404);
    assert.equal((await api('DELETE', `/v1/recurrences/${id}`, undefined, other.key)).status, 404);
    assert.equal((await api('GET', '/v1/recurrences', undefined, other.key)).body.data.some((r: any) => r.id === id), false);
    assert.equal((await api('GET', `/v1/recurrences/${id}`)).body.data.status, 'active');
  });

  test('DELETE removes it: 404 afterwards', async () => {
    const { body } = await api('POST', '/v1/recurrences', { accounts: [account.id], content: 'Gone soon', every: { days: 1 }, startAt: inAnHour() });
    const res = await api('DELETE', `/v1/recurrences/${body.data.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true, cancelledPostIds: [] });
    assert.equal((await api('GET', `/v1/recurrences/${body.data.id}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/recurrences/${body.data.id}`)).status, 404);
  });
});
