// /v1/queues over real HTTP: create, list, get, update, delete, the per-field refusals, isolation
// between organizations, the preview of the next slots with the posts in them, and the OpenAPI entries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  other = await server.createOrg();
});
after(() => server.close());

const api = (method: string, path: string, body?: unknown, key = org.key) => server.request(method, path, { key, body });
const newAccount = (owner = org) => server.addAccount(owner, 'linkedin');

describe('create', () => {
  test('201 with the slots in week order, the zone as Intl names it, and the account it belongs to', async () => {
    const account = await newAccount();
    const res = await api('POST', '/v1/queues', {
      socialAccountId: account.id, timeZone: 'utc',
      slots: [{ day: 'friday', time: '17:30' }, { day: 'monday', time: '09:00' }, { day: 'monday', time: '08:05' }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const queue = res.body.data;
    assert.equal(queue.socialAccountId, account.id);
    assert.equal(queue.timeZone, 'UTC');
    assert.deepEqual(queue.slots, [{ day: 'monday', time: '08:05' }, { day: 'monday', time: '09:00' }, { day: 'friday', time: '17:30' }]);
    const read = await api('GET', `/v1/queues/${queue.id}`);
    assert.deepEqual(read.body, { success: true, data: queue });
  });

  test('a second queue for the same account is a 409 naming the field; the first is unchanged', async () => {
    const account = await newAccount();
    const first = await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'Europe/Paris', slots: [{ day: 'monday', time: '09:00' }] });
    const second = await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'Asia/Tokyo', slots: [{ day: 'tuesday', time: '10:00' }] });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'queue_exists');
    assert.deepEqual(second.body.details, [{ field: 'socialAccountId', message: 'this account has a queue already' }]);
    assert.equal((await api('GET', `/v1/queues/${first.body.data.id}`)).body.data.timeZone, 'Europe/Paris');
  });

  test('bad zones, times, duplicates, too many slots, unknown fields and foreign accounts: 400 with per-field details, nothing stored', async () => {
    const account = await newAccount();
    const foreign = await newAccount(other);
    const cases: [unknown, { field: string; message: RegExp }[]][] = [
      [{ socialAccountId: account.id, timeZone: 'Mars/Olympus', slots: [{ day: 'monday', time: '09:00' }] }, [{ field: 'timeZone', message: /"Mars\/Olympus" is not an IANA time zone name/ }]],
      [{ socialAccountId: account.id, timeZone: '+02:00', slots: [{ day: 'monday', time: '09:00' }] }, [{ field: 'timeZone', message: /UTC offset/ }]],
      [{ socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '24:00' }] }, [{ field: 'slots[0].time', message: /must match pattern/ }]],
      [{ socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'funday', time: '09:00' }] }, [{ field: 'slots[0].day', message: /must be one of "monday"/ }]],
      [
        { socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }, { day: 'tuesday', time: '09:00' }, { day: 'monday', time: '09:00' }] },
        [{ field: 'slots[2]', message: /^repeats slots\[0\] \(monday 09:00\)/ }],
      ],
      [
        { socialAccountId: account.id, timeZone: 'UTC', slots: Array.from({ length: 101 }, (_, i) => ({ day: 'monday', time: `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}` })) },
        [{ field: 'slots', message: /must NOT have more than 100 items/ }],
      ],
      [{ socialAccountId: account.id, timeZone: 'UTC', slots: [] }, [{ field: 'slots', message: /must NOT have fewer than 1 items/ }]],
      [{ socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }], colour: 'red' }, [{ field: 'colour', message: /is not a field of a queue/ }]],
      [{ socialAccountId: foreign.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }] }, [{ field: 'socialAccountId', message: /no social account of this organization/ }]],
    ];
    for (const [body, expected] of cases) {
      const res = await api('POST', '/v1/queues', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.details.length, expected.length, JSON.stringify(res.body.details));
      expected.forEach((issue, i) => {
        assert.equal(res.body.details[i].field, issue.field, JSON.stringify(res.body.details));
        assert.match(res.body.details[i].message, issue.message);
      });
    }
    const list = await api('GET', `/v1/queues?social_account_id=${account.id}`);
    assert.deepEqual(list.body.data, []);
  });
});

describe('list, update, delete', () => {
  let account: TestAccount;
  let id: string;

  before(async () => {
    account = await newAccount();
    id = (await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'America/New_York', slots: [{ day: 'wednesday', time: '12:00' }] })).body.data.id;
  });

  test('the list holds the organization\'s queues only, filtered by account', async () => {
    await api('POST', '/v1/queues', { socialAccountId: (await newAccount(other)).id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }] }, other.key);
    const all = await api('GET', '/v1/queues?limit=100');
    assert.equal(all.status, 200);
    assert.ok(all.body.data.some((q: any) => q.id === id));
    assert.equal(all.body.count, all.body.data.length);
    const mine = await api('GET', `/v1/queues?social_account_id=${account.id}`);
    assert.deepEqual(mine.body.data.map((q: any) => q.id), [id]);
    const theirs = await api('GET', '/v1/queues', undefined, other.key);
    assert.equal(theirs.body.data.some((q: any) => q.id === id), false);
  });

  test('PATCH replaces the slots and/or the zone; an empty body or a bad zone is a 400', async () => {
    const res = await api('PATCH', `/v1/queues/${id}`, { slots: [{ day: 'sunday', time: '18:00' }, { day: 'monday', time: '07:15' }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.slots, [{ day: 'monday', time: '07:15' }, { day: 'sunday', time: '18:00' }]);
    assert.equal(res.body.data.timeZone, 'America/New_York');
    const zoned = await api('PATCH', `/v1/queues/${id}`, { timeZone: 'Europe/Berlin' });
    assert.equal(zoned.body.data.timeZone, 'Europe/Berlin');
    assert.equal(zoned.body.data.slots.length, 2);
    const empty = await api('PATCH', `/v1/queues/${id}`, {});
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.details.map((d: any) => d.field), ['slots']);
    const bad = await api('PATCH', `/v1/queues/${id}`, { timeZone: 'Nowhere/Land' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: any) => d.field), ['timeZone']);
    assert.equal((await api('GET', `/v1/queues/${id}`)).body.data.timeZone, 'Europe/Berlin');
  });

  test('another organization gets 404 for every operation, and changes nothing', async () => {
    for (const [method, body] of [['GET'], ['PATCH', { timeZone: 'UTC' }], ['DELETE']] as const) {
      const res = await api(method, `/v1/queues/${id}`, body, other.key);
      assert.equal(res.status, 404, method);
    }
    assert.equal((await api('GET', `/v1/queues/${id}/slots`, undefined, other.key)).status, 404);
    assert.equal((await api('GET', '/v1/queues/not-an-id')).status, 404);
    assert.equal((await api('GET', `/v1/queues/${id}`)).status, 200);
  });

  test('DELETE removes it: 404 afterwards, and the account can have a new one', async () => {
    const res = await api('DELETE', `/v1/queues/${id}`);
    assert.deepEqual(res.body, { success: true });
    assert.equal((await api('GET', `/v1/queues/${id}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/queues/${id}`)).status, 404);
    const again = await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }] });
    assert.equal(again.status, 201);
  });
});

describe('GET /v1/queues/:id/slots', () => {
  test('the next N slots in time order, each with the posts standing at it; cancelled posts free theirs', async () => {
    const account = await newAccount();
    // Every day at 06:00 and 18:00 UTC: the next ones are easy to count from now.
    const slots = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].flatMap((day) => [{ day, time: '06:00' }, { day, time: '18:00' }]);
    const queue = (await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'UTC', slots })).body.data;
    const expected: string[] = [];
    for (let hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000); expected.length < 5; hour = new Date(hour.getTime() + 3_600_000)) {
      if (hour.getUTCHours() === 6 || hour.getUTCHours() === 18) expected.push(hour.toISOString());
    }
    const post = await api('POST', '/v1/posts', { accounts: [account.id], content: 'in the second slot', scheduledAt: expected[1] });
    assert.equal(post.status, 200, JSON.stringify(post.body));

    const res = await api('GET', `/v1/queues/${queue.id}/slots?count=5`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((s: any) => s.at), expected);
    assert.deepEqual(res.body.data.map((s: any) => s.postIds), [[], [post.body.post.id], [], [], []]);
    assert.deepEqual(res.body.data[0].time, expected[0]!.slice(11, 16));
    assert.ok(res.body.data.every((s: any) => s.withinSchedulingWindow === true));

    await api('DELETE', `/v1/posts/${post.body.post.id}`);
    const freed = await api('GET', `/v1/queues/${queue.id}/slots?count=2`);
    assert.deepEqual(freed.body.data.map((s: any) => s.postIds), [[], []]);
    assert.equal((await api('GET', `/v1/queues/${queue.id}/slots?count=0`)).status, 400);
  });

  test('slots beyond the 30-day window are listed and marked', async () => {
    const account = await newAccount();
    const queue = (await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'Europe/Paris', slots: [{ day: 'monday', time: '09:00' }] })).body.data;
    const res = await api('GET', `/v1/queues/${queue.id}/slots?count=6`);
    assert.equal(res.body.data.length, 6);
    const horizon = Date.now() + 30 * 86_400_000;
    assert.deepEqual(res.body.data.map((s: any) => s.withinSchedulingWindow), res.body.data.map((s: any) => Date.parse(s.at) <= horizon));
    assert.equal(res.body.data.at(-1).withinSchedulingWindow, false);
    assert.ok(res.body.data.every((s: any) => s.day === 'monday' && s.time === '09:00'));
  });
});

test('/openapi.json documents the queue operations with their schemas', async () => {
  const doc = (await server.request('GET', '/openapi.json')).body;
  for (const [path, methods] of [['/v1/queues', ['get', 'post']], ['/v1/queues/{id}', ['get', 'patch', 'delete']], ['/v1/queues/{id}/slots', ['get']]] as const) {
    for (const method of methods) assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
  }
  const body = doc.paths['/v1/queues'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(body.required.sort(), ['slots', 'socialAccountId', 'timeZone']);
  const scheduledAt = doc.paths['/v1/posts'].post.requestBody.content['application/json'].schema.properties.scheduledAt;
  assert.ok(JSON.stringify(scheduledAt).includes('next-free-slot'));
});
