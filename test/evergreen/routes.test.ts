// /v1/evergreen-collections over real HTTP: create (each item judged as its post for the collection's
// accounts, the schedule and gap field by field), list, get with items and latest posts, rename, pause
// and resume, delete; items added, listed and removed; isolation between organizations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
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
/** A collection the runner leaves alone while the test looks (paused: no worker runs here anyway). */
const paused = (more: Record<string, unknown> = {}) => ({ name: 'Classics', accounts: [account.id], queue: true, status: 'paused', ...more });

function assertDetails(res: { status: number; body: any }, expected: { field: string; message: RegExp }[], sent: unknown): void {
  assert.equal(res.status, 400, JSON.stringify(sent));
  assert.equal(res.body.code, 'validation_error', JSON.stringify(res.body));
  for (const { field, message } of expected) {
    assert.ok(res.body.details.some((d: any) => d.field === field && message.test(d.message)), `${JSON.stringify(sent)}: no ${field} ~ ${message} in ${JSON.stringify(res.body.details)}`);
  }
}

describe('create', () => {
  test('201: the settings, the accounts as ids, each item with its variations, unused; GET and the list show the same', async () => {
    const res = await api('POST', '/v1/evergreen-collections', {
      name: '  Blog classics ', accounts: [account.username], queue: true, minGapDays: 14,
      items: [
        { content: 'Read our guide to queues', variations: [{ content: 'Our guide to queues, again' }] },
        { containers: [{ content: 'A thread' }, { content: 'in two parts' }] },
      ],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const data = res.body.data;
    assert.equal(data.name, 'Blog classics');
    assert.equal(data.status, 'active');
    assert.deepEqual(data.accounts, [account.id]);
    assert.equal(data.queue, true);
    assert.equal(data.startAt, null);
    assert.equal(data.minGapDays, 14);
    assert.equal(data.nextOccurrenceAt, null);
    assert.equal(data.turns, 0);
    assert.equal(data.itemCount, 2);
    assert.deepEqual(data.latestPosts, []);
    assert.deepEqual(data.items.map((i: any) => [i.position, i.content ?? null, i.variations, i.lastUsedAt, i.timesUsed]), [
      [1, 'Read our guide to queues', [{ content: 'Our guide to queues, again' }], null, 0],
      [2, null, [], null, 0],
    ]);
    assert.deepEqual(data.items[1].containers, [{ content: 'A thread' }, { content: 'in two parts' }]);
    const read = await api('GET', `/v1/evergreen-collections/${data.id}`);
    // No runner runs beside this server: the collection reads back exactly as created.
    assert.deepEqual(read.body, { success: true, data });
    const list = await api('GET', '/v1/evergreen-collections');
    assert.equal(list.status, 200);
    const listed = list.body.data.find((c: any) => c.id === data.id);
    assert.equal(listed.itemCount, 2);
    assert.equal(listed.items, undefined, 'the list shows no items');
  });

  test('a rule schedule: weekly at a local time, startAt; the next occurrence is shown', async () => {
    const res = await api('POST', '/v1/evergreen-collections', {
      name: 'Mondays', accounts: [account.id], weekly: { days: ['monday'], time: '09:00', timeZone: 'europe/paris' }, startAt: inAnHour(), items: [{ content: 'Monday tip' }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.weekly, { days: ['monday'], time: '09:00', timeZone: 'Europe/Paris' });
    assert.equal(res.body.data.queue, undefined);
    assert.equal(res.body.data.minGapDays, 30, 'the default gap');
    const next = new Date(res.body.data.nextOccurrenceAt);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(next);
    assert.equal(local, 'Monday 09:00');
  });

  test('bad collections and items: 400 with per-field details, nothing stored', async () => {
    const base = { name: 'Bad', accounts: [account.id], queue: true };
    const cases: [unknown, { field: string; message: RegExp }[]][] = [
      ['not an object', [{ field: '(body)', message: /JSON object/ }]],
      [{ accounts: [account.id], queue: true }, [{ field: 'name', message: /1 to 200/ }]],
      [{ ...base, accounts: [] }, [{ field: 'accounts', message: /1 to 100/ }]],
      [{ name: 'x', accounts: [account.id] }, [{ field: 'queue', message: /exactly one of "queue": true/ }]],
      [{ ...base, every: { days: 1 } }, [{ field: 'queue', message: /exactly one/ }]],
      [{ ...base, queue: 'yes' }, [{ field: 'queue', message: /must be true/ }]],
      [{ ...base, startAt: inAnHour() }, [{ field: 'startAt', message: /belongs to a rule/ }]],
      [{ name: 'x', accounts: [account.id], every: { minutes: 30 } }, [{ field: 'every.minutes', message: /not a unit/ }]],
      [{ name: 'x', accounts: [account.id], weekly: { days: ['funday'], time: '25:00', timeZone: '+02:00' } }, [
        { field: 'weekly.days[0]', message: /must be one of "monday"/ }, { field: 'weekly.time', message: /HH:MM/ }, { field: 'weekly.timeZone', message: /UTC offset/ },
      ]],
      [{ name: 'x', accounts: [account.id], every: { days: 1 }, startAt: '2020-01-01T00:00Z' }, [{ field: 'startAt', message: /past/ }]],
      [{ ...base, minGapDays: -1 }, [{ field: 'minGapDays', message: /0 to 3650/ }]],
      [{ ...base, minGapDays: 1.5 }, [{ field: 'minGapDays', message: /whole number/ }]],
      [{ ...base, status: 'stopped' }, [{ field: 'status', message: /"active" or "paused"/ }]],
      [{ ...base, content: 'Hello' }, [{ field: 'content', message: /not a field.*"items"/ }]],
      [{ ...base, items: 'all of them' }, [{ field: 'items', message: /list of at most 100/ }]],
      [{ ...base, items: [{ content: '' }, 'text', { content: 'Hi', accounts: [account.id], scheduledAt: inAnHour(), isDraft: true }] }, [
        { field: 'items[0].content', message: /must not be empty/ },
        { field: 'items[1]', message: /must be a post body/ },
        { field: 'items[2].accounts', message: /collection's "accounts"/ },
        { field: 'items[2].scheduledAt', message: /set by the collection/ },
        { field: 'items[2].isDraft', message: /no drafts/ },
      ]],
      [{ ...base, items: [{ content: 'Hi', variations: [{ content: '' }, { text: 'x' }] }] }, [
        { field: 'items[0].variations[0].content', message: /must not be empty/ }, { field: 'items[0].variations[1]', message: /nothing else/ },
      ]],
    ];
    const before = [await countRows(server.db, 'evergreen_collections', org.orgId), await countRows(server.db, 'evergreen_items', org.orgId)];
    for (const [body, expected] of cases) assertDetails(await api('POST', '/v1/evergreen-collections', body), expected, body);
    assert.deepEqual([await countRows(server.db, 'evergreen_collections', org.orgId), await countRows(server.db, 'evergreen_items', org.orgId)], before);
  });

  test("a network's rule refuses an item or a variation for the collection's accounts: 400 naming it", async () => {
    const gram = await server.addAccount(org, 'instagram');
    const body = { name: 'Photos', accounts: [gram.id], queue: true, items: [{ containers: [{ content: 'With a picture', media: [{ url: 'https://example.com/cat.png', filename: 'cat.png' }] }], variations: [{ content: 'Text only' }] }, { content: 'Text only too' }] };
    const res = await api('POST', '/v1/evergreen-collections', body);
    assertDetails(res, [
      { field: 'items[0].variations[0].socialAccounts[0]', message: /Instagram needs an image or a video/ },
      { field: 'items[1].socialAccounts[0]', message: /Instagram needs an image or a video/ },
    ], body);
    assert.equal(res.body.details.length, 2, 'the item with its picture is fine');
  });

  test("another organization's account is no account: 400 no_account_resolved", async () => {
    const foreign = await server.addAccount(other, 'bluesky');
    const res = await api('POST', '/v1/evergreen-collections', { name: 'Theirs', accounts: [foreign.id], queue: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'no_account_resolved');
  });
});

describe('items', () => {
  test('added last, judged for the accounts, listed with their use, removed: 404 afterwards', async () => {
    const { body } = await api('POST', '/v1/evergreen-collections', paused({ items: [{ content: 'First' }] }));
    const id = body.data.id;
    const added = await api('POST', `/v1/evergreen-collections/${id}/items`, { content: 'Second', variations: [{ content: 'Second, reworded' }] });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.data.position, 2);
    assert.equal(added.body.data.content, 'Second');
    assert.equal(added.body.data.timesUsed, 0);
    const bad = await api('POST', `/v1/evergreen-collections/${id}/items`, { content: 'Fine', accounts: ['x'], variations: [{ content: '' }] });
    assertDetails(bad, [{ field: 'accounts', message: /collection's/ }, { field: 'variations[0].content', message: /empty/ }], 'bad item');
    const list = await api('GET', `/v1/evergreen-collections/${id}/items`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((i: any) => [i.content, i.lastUsedAt, i.timesUsed]), [['First', null, 0], ['Second', null, 0]]);

    const first = list.body.data[0].id;
    assert.deepEqual((await api('DELETE', `/v1/evergreen-collections/${id}/items/${first}`)).body, { success: true });
    assert.equal((await api('DELETE', `/v1/evergreen-collections/${id}/items/${first}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/evergreen-collections/${id}/items/not-an-id`)).status, 404);
    const after = (await api('GET', `/v1/evergreen-collections/${id}`)).body.data;
    assert.deepEqual(after.items.map((i: any) => i.content), ['Second']);
    assert.equal(after.itemCount, 1);
  });
});

describe('change, delete, isolation', () => {
  test('PATCH renames, changes the gap, pauses and resumes; other fields and bad values are 400 per field', async () => {
    const { body } = await api('POST', '/v1/evergreen-collections', paused());
    const id = body.data.id;
    const changed = await api('PATCH', `/v1/evergreen-collections/${id}`, { name: 'Renamed', minGapDays: 7, status: 'active' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.name, changed.body.data.minGapDays, changed.body.data.status], ['Renamed', 7, 'active']);
    const bad = await api('PATCH', `/v1/evergreen-collections/${id}`, { status: 'stopped', minGapDays: 'week', accounts: [] });
    assertDetails(bad, [{ field: 'status', message: /"active" or "paused"/ }, { field: 'minGapDays', message: /whole number/ }, { field: 'accounts', message: /cannot be changed/ }], 'bad patch');
    assertDetails(await api('PATCH', `/v1/evergreen-collections/${id}`, {}), [{ field: '(body)', message: /at least one/ }], {});
    assertDetails(await api('PATCH', `/v1/evergreen-collections/${id}`, [1]), [{ field: '(body)', message: /JSON object/ }], [1]);
    const paused2 = await api('PATCH', `/v1/evergreen-collections/${id}`, { status: 'paused' });
    assert.equal(paused2.body.data.status, 'paused');
    assert.equal(paused2.body.data.nextRunAt, null, 'a paused collection has no next run');
  });

  test('another organization sees none of it: 404 on every route; not in its list', async () => {
    const { body } = await api('POST', '/v1/evergreen-collections', paused({ items: [{ content: 'Mine' }] }));
    const id = body.data.id;
    const itemId = body.data.items[0].id;
    assert.equal((await api('GET', `/v1/evergreen-collections/${id}`, undefined, other.key)).status, 404);
    assert.equal((await api('PATCH', `/v1/evergreen-collections/${id}`, { status: 'active' }, other.key)).status, 404);
    assert.equal((await api('GET', `/v1/evergreen-collections/${id}/items`, undefined, other.key)).status, 404);
    assert.equal((await api('POST', `/v1/evergreen-collections/${id}/items`, { content: 'Theirs' }, other.key)).status, 404);
    assert.equal((await api('DELETE', `/v1/evergreen-collections/${id}/items/${itemId}`, undefined, other.key)).status, 404);
    assert.equal((await api('DELETE', `/v1/evergreen-collections/${id}`, undefined, other.key)).status, 404);
    assert.equal((await api('GET', '/v1/evergreen-collections', undefined, other.key)).body.data.some((c: any) => c.id === id), false);
    const mine = (await api('GET', `/v1/evergreen-collections/${id}`)).body.data;
    assert.equal(mine.status, 'paused');
    assert.equal(mine.itemCount, 1);
  });

  test('DELETE removes it and its items: 404 afterwards', async () => {
    const { body } = await api('POST', '/v1/evergreen-collections', paused({ items: [{ content: 'Gone soon' }] }));
    const res = await api('DELETE', `/v1/evergreen-collections/${body.data.id}`);
    assert.deepEqual([res.status, res.body], [200, { success: true, cancelledPostIds: [] }]);
    assert.equal((await api('GET', `/v1/evergreen-collections/${body.data.id}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/evergreen-collections/${body.data.id}`)).status, 404);
    const { rows } = await server.db.query('SELECT 1 FROM evergreen_items WHERE id = $1', [decodeId(body.data.items[0].id)]);
    assert.equal(rows.length, 0);
  });
});
