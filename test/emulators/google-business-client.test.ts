// The Google emulator's Business Profile paths against Google's own generated Node clients, used
// unchanged: `@googleapis/mybusinessaccountmanagement` (accounts.list),
// `@googleapis/mybusinessbusinessinformation` (the account's locations with a readMask) and
// `@googleapis/businessprofileperformance` (fetchMultiDailyMetricsTimeSeries, whose `dailyMetrics`
// the client sends as a repeated parameter). Each is pointed at the emulator with googleapis-common's
// documented `rootUrl` option, as test/emulators/google-youtube-client.test.ts does for YouTube.
// The v4 localPosts API has no current official Node client (README), so it is not driven here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { businessprofileperformance } from '@googleapis/businessprofileperformance';
import { mybusinessaccountmanagement } from '@googleapis/mybusinessaccountmanagement';
import { mybusinessbusinessinformation } from '@googleapis/mybusinessbusinessinformation';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';

const APP = { clientId: '88-business.apps.googleusercontent.com', clientSecret: 'GOCSPX-business', redirectUris: ['http://localhost/cb'] };
const BUSINESS = 'https://www.googleapis.com/auth/business.manage';

let google: GoogleEmulator;
let options: { rootUrl: string; headers: Record<string, string> };

before(async () => {
  google = await startGoogleEmulator();
  google.addApp(APP);
  const user = google.addUser({
    name: 'Owner',
    businessAccounts: [
      { accountName: 'Owner Group', type: 'LOCATION_GROUP', locations: [{ title: 'Shop North', websiteUri: 'https://north.example' }, { title: 'Shop South' }, { title: 'Shop East' }] },
      { type: 'PERSONAL', locations: [] },
    ],
  });
  const token = google.oauth.issue(user.id, APP.clientId, [BUSINESS]).accessToken;
  options = { rootUrl: `${google.url}/`, headers: { authorization: `Bearer ${token}` } };
});
after(() => google.close());

/** Every API error the clients raise carries Google's envelope; show it when a call fails. */
const explained = async <T>(call: Promise<T>): Promise<T> => call.catch((error: any) => {
  throw new Error(`${error.status ?? ''} ${JSON.stringify(error.response?.data ?? error.message)}`);
});

describe('Business Profile’s official clients against the emulator', () => {
  test('mybusinessaccountmanagement accounts.list: the personal account first, then the rest, paged by pageSize', async () => {
    const client = mybusinessaccountmanagement({ version: 'v1', ...options });
    const { status, data } = await explained(client.accounts.list());
    assert.equal(status, 200);
    assert.deepEqual(data.accounts!.map((a) => [a.accountName, a.type]), [['Owner', 'PERSONAL'], ['Owner Group', 'LOCATION_GROUP']]);
    const first = await explained(client.accounts.list({ pageSize: 1 }));
    assert.deepEqual(first.data.accounts!.map((a) => a.type), ['PERSONAL']);
    const next = await explained(client.accounts.list({ pageSize: 1, pageToken: first.data.nextPageToken! }));
    assert.deepEqual(next.data.accounts!.map((a) => a.accountName), ['Owner Group']);
    assert.equal(next.data.nextPageToken, undefined);
  });

  test('mybusinessbusinessinformation accounts.locations.list of an account from accounts.list: only the readMask fields, paged', async () => {
    const accounts = (await explained(mybusinessaccountmanagement({ version: 'v1', ...options }).accounts.list())).data.accounts!;
    const group = accounts.find((a) => a.type === 'LOCATION_GROUP')!;
    const client = mybusinessbusinessinformation({ version: 'v1', ...options });
    const first = await explained(client.accounts.locations.list({ parent: group.name!, readMask: 'name,title,websiteUri', pageSize: 2 }));
    assert.equal(first.status, 200);
    assert.deepEqual(first.data.locations!.map((l) => l.title), ['Shop North', 'Shop South']);
    assert.deepEqual(Object.keys(first.data.locations![0]!).sort(), ['name', 'title', 'websiteUri']);
    assert.match(first.data.locations![0]!.name!, /^locations\/\d+$/);
    const rest = await explained(client.accounts.locations.list({ parent: group.name!, readMask: 'title', pageSize: 2, pageToken: first.data.nextPageToken! }));
    assert.deepEqual(rest.data.locations, [{ title: 'Shop East' }]);
    const personal = accounts.find((a) => a.type === 'PERSONAL')!;
    assert.deepEqual((await explained(client.accounts.locations.list({ parent: personal.name!, readMask: 'name' }))).data, {}, 'no locations: an empty message');
    await assert.rejects(client.accounts.locations.list({ parent: group.name! }), (error: any) => {
      assert.equal(error.status, 400);
      assert.equal(error.response.data.error.details[0].fieldViolations[0].field, 'read_mask');
      return true;
    });
  });

  test('businessprofileperformance fetchMultiDailyMetricsTimeSeries: every metric the client repeats, every day of the range', async () => {
    const group = (await explained(mybusinessaccountmanagement({ version: 'v1', ...options }).accounts.list())).data.accounts!.find((a) => a.type === 'LOCATION_GROUP')!;
    const [location] = (await explained(mybusinessbusinessinformation({ version: 'v1', ...options }).accounts.locations.list({ parent: group.name!, readMask: 'name' }))).data.locations!;
    google.business.setDailyMetric(location!.name!, 'WEBSITE_CLICKS', [{ date: '2026-03-02', value: 4 }]);
    google.business.setDailyMetric(location!.name!, 'CALL_CLICKS', [{ date: '2026-03-01', value: 1 }]);
    const client = businessprofileperformance({ version: 'v1', ...options });
    const { status, data } = await explained(client.locations.fetchMultiDailyMetricsTimeSeries({
      location: location!.name!,
      dailyMetrics: ['WEBSITE_CLICKS', 'CALL_CLICKS'],
      'dailyRange.startDate.year': 2026, 'dailyRange.startDate.month': 3, 'dailyRange.startDate.day': 1,
      'dailyRange.endDate.year': 2026, 'dailyRange.endDate.month': 3, 'dailyRange.endDate.day': 2,
    }));
    assert.equal(status, 200);
    const series = data.multiDailyMetricTimeSeries![0]!.dailyMetricTimeSeries!;
    assert.deepEqual(series.map((s) => [s.dailyMetric, s.timeSeries!.datedValues!.map((d) => d.value ?? null)]), [
      ['WEBSITE_CLICKS', [null, '4']],
      ['CALL_CLICKS', ['1', null]],
    ]);
    const call = google.business.calls().findLast((c) => c.path.endsWith(':fetchMultiDailyMetricsTimeSeries'))!;
    assert.equal(call.query.dailyMetrics, 'WEBSITE_CLICKS,CALL_CLICKS', 'the client repeats the parameter and both values arrive');
  });
});
