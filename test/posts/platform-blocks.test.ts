// Every platform-block rule of the spec, over real HTTP: status, the fields named in `details`, and
// that a rejected body stores nothing. The cases live in platform-blocks.cases.ts (shared with the
// pure test in test/networks/).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NETWORKS } from '../../src/networks/ids.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { blockCases } from './platform-blocks.cases.ts';

let server: TestServer;
let org: TestOrg;
const accounts = new Map<NetworkId, TestAccount>();

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  for (const network of NETWORKS) accounts.set(network, await server.addAccount(org, network));
});
after(() => server.close());

for (const c of blockCases) {
  test(c.name, async () => {
    const postsBefore = await countRows(server.db, 'posts', org.orgId);
    const body = { ...c.body, accounts: c.networks.map((n) => accounts.get(n)!.id) };
    const res = await server.request('POST', '/v1/posts', { key: org.key, body });
    assert.equal(res.status, c.expect.status, JSON.stringify(res.body));
    if (c.expect.status === 400) {
      assert.equal(res.body.success, false);
      const fields = (res.body.details as { field: string }[]).map((d) => d.field);
      for (const field of c.expect.fields) assert.ok(fields.includes(field), `expected "${field}" in details, got ${JSON.stringify(res.body.details)}`);
      assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore, 'a rejected body stores nothing');
    } else {
      assert.equal(res.body.post.socialAccounts.length, c.networks.length);
      assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore + 1);
    }
  });
}
