// A worker holds more destinations than it calls networks for at once (worker.ts, CLAIM_AHEAD_SHARE):
// the extra ones are claimed with their first step written, and wait for a network slot. Calls in
// flight never exceed CRIER_PUBLISH_CONCURRENCY, and every destination still publishes once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NetworkAdapter } from '../../src/networks/contract.ts';
import type { PartRef } from '../../src/core/post.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

const SLOTS = 2;
const POSTS = 12;

let stack: PublishingStack;
let org: TestOrg;
let calling = 0;
let mostCalling = 0;
/** Destinations the worker had started (prepared) and not finished calling for, at most. */
let held = 0;
let mostHeld = 0;
const published: string[] = [];

/** A network that answers after 150 ms and records how many calls it had at once. */
const slowNetwork: NetworkAdapter = {
  network: 'x',
  async prepare(input) {
    held++;
    mostHeld = Math.max(mostHeld, held);
    return {
      reserve: (position) => ({ position }),
      async publishPart(position): Promise<PartRef> {
        calling++;
        mostCalling = Math.max(mostCalling, calling);
        await new Promise((resolve) => setTimeout(resolve, 150));
        calling--;
        held--;
        published.push(input.containers[position]!.content);
        return { platformId: `id-${input.containers[position]!.content}`, url: 'https://example.test/' };
      },
      async reconcile() {
        return 'absent';
      },
    };
  },
};

before(async () => {
  stack = await startPublishingStack({ CRIER_PUBLISH_CONCURRENCY: String(SLOTS) }, { worker: false });
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('network calls stay within the slots while more destinations wait claimed; each publishes once', async () => {
  const account = await stack.server.addAccount(org, 'x', 'slots_x');
  const ids: string[] = [];
  for (let i = 0; i < POSTS; i++) {
    const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: `post ${i}` }], isDraft: true } });
    ids.push(res.body.post.id);
  }
  await stack.startWorker({ x: slowNetwork });
  await Promise.all(ids.map((id) => stack.server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { isDraft: false } })));
  for (const id of ids) {
    const post = await stack.waitForPost(org, id, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', JSON.stringify(post.socialAccounts));
  }
  assert.equal(mostCalling, SLOTS, 'calls in flight reach the slots and never pass them');
  assert.ok(mostHeld > SLOTS, `destinations were taken ahead of the slots (at most ${mostHeld} held)`);
  assert.equal(published.length, POSTS);
  assert.equal(new Set(published).size, POSTS, 'each destination published once');
});
