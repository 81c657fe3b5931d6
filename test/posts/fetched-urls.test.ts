// A URL that Crier or a network will fetch is judged at create time by the rules of the guarded client
// that will fetch it, including the installation's own settings: the loopback switch of the tests lets
// loopback through (and nothing else), and Crier's own media URLs are read from storage, so their
// address never matters. The contract cases (test/posts/platform-blocks.cases.ts) cover every field
// with the production rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

const OWN_TOKEN = 'A'.repeat(32);

describe('with the loopback switch on (tests)', () => {
  let server: TestServer;
  let org: TestOrg;
  let x: TestAccount;
  before(async () => {
    server = await startTestServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true' });
    org = await server.createOrg();
    x = await server.addAccount(org, 'x');
  });
  after(() => server.close());

  test('a loopback media URL is accepted, any other internal address still refused', async () => {
    const post = (url: string) => server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], containers: [{ media: [{ url, filename: 'a.png' }] }] } });
    for (const url of ['https://127.0.0.1:8443/a.png', 'https://[::1]:8443/a.png']) assert.equal((await post(url)).status, 200, url);
    const stored = await countRows(server.db, 'posts', org.orgId);
    for (const url of ['https://10.0.0.1/a.png', 'https://169.254.169.254/a.png', 'http://127.0.0.1:8443/a.png']) {
      const res = await post(url);
      assert.equal(res.status, 400, url);
      assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), ['containers[0].media[0].url'], url);
      assert.match(res.body.details[0].message, /^must be (a public https URL|an https URL)/, url);
    }
    assert.equal(await countRows(server.db, 'posts', org.orgId), stored);
  });
});

describe('with a PUBLIC_BASE_URL on a loopback address and the switch off (a local install)', () => {
  let server: TestServer;
  let org: TestOrg;
  let x: TestAccount;
  before(async () => {
    server = await startTestServer({ PUBLIC_BASE_URL: 'https://127.0.0.1:8443' });
    org = await server.createOrg();
    x = await server.addAccount(org, 'x');
  });
  after(() => server.close());

  test("Crier's own media URL is accepted (read from storage), another URL on that address is not", async () => {
    const post = (url: string) => server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], containers: [{ media: [{ url, filename: 'a.png' }] }] } });
    assert.equal((await post(`https://127.0.0.1:8443/media/${OWN_TOKEN}/a.png`)).status, 200);
    const other = await post('https://127.0.0.1:8443/elsewhere/a.png');
    assert.equal(other.status, 400);
    assert.deepEqual(other.body.details, [{ field: 'containers[0].media[0].url', message: 'must be a public https URL; address 127.0.0.1 is not allowed (loopback)' }]);
  });

  test('a cover URL gets the same treatment as a media URL', async () => {
    const body = (thumbnailUrl: string) => ({ accounts: [x.id], containers: [{ media: [{ url: 'https://cdn.example.com/v.mp4', filename: 'v.mp4' }] }], youtube: { thumbnailUrl } });
    assert.equal((await server.request('POST', '/v1/posts', { key: org.key, body: body(`https://127.0.0.1:8443/media/${OWN_TOKEN}/t.jpg`) })).status, 200);
    const refused = await server.request('POST', '/v1/posts', { key: org.key, body: body('https://[::1]/t.jpg') });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.details, [{ field: 'youtube.thumbnailUrl', message: 'must be a public https URL; address ::1 is not allowed (loopback)' }]);
  });
});
