// Every API version Crier pins (a header, a path segment) has a documented end. This test fails three
// months before it, so that a maintainer moves the version while the old one still answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORK_LIST } from '../../src/networks/registry.ts';

const WARNING_DAYS = 90;

test('every pinned API version is at least three months from its documented sunset', () => {
  const soon = Date.now() + WARNING_DAYS * 86_400_000;
  const late = NETWORK_LIST.flatMap((network) => network.apiVersions
    .filter((v) => Date.parse(`${v.sunset}T00:00:00Z`) <= soon)
    .map((v) => `${network.id}: ${v.carrier} ${v.version} ends ${v.sunset} (${v.source})`));
  assert.deepEqual(late, [], 'move these to a newer version before the network stops serving them');
});

test('each pinned version names a real date and where it is documented', () => {
  for (const network of NETWORK_LIST) {
    for (const v of network.apiVersions) {
      assert.match(v.sunset, /^\d{4}-\d{2}-\d{2}$/, `${network.id} ${v.version}`);
      assert.ok(!Number.isNaN(Date.parse(`${v.sunset}T00:00:00Z`)), `${network.id} ${v.version}: ${v.sunset}`);
      assert.match(v.source, /^https:\/\//, `${network.id} ${v.version}: a source URL`);
    }
  }
  // The Graph API version is one constant for Facebook and Instagram: both pin the same one.
  const graph = NETWORK_LIST.filter((n) => n.apiVersions.some((v) => v.carrier.startsWith('Graph API')));
  assert.equal(new Set(graph.map((n) => n.apiVersions[0]!.version)).size, 1);
});
