// A network's declared `limits.concurrency` bounds the calls one process has in flight to it, apart
// from the process's own slots (CRIER_PUBLISH_CONCURRENCY): destinations of a busy network wait their
// turn without holding a process slot, so another network's destinations keep publishing meanwhile.
// Both networks are fake adapters that record how many calls they had at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NetworkAdapter } from '../../src/networks/contract.ts';
import type { PartRef } from '../../src/core/post.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

const SLOTS = 3;
let stack: PublishingStack;
let org: TestOrg;

interface Recorder {
  adapter: NetworkAdapter;
  calling: number;
  most: number;
  published: string[];
}

/** A network answering after `ms`, counting its calls in flight. */
function slowNetwork(network: NetworkId, ms: number): Recorder {
  const recorder: Recorder = { calling: 0, most: 0, published: [], adapter: undefined as never };
  recorder.adapter = {
    network,
    async prepare(input) {
      return {
        reserve: (position) => ({ position }),
        async publishPart(position): Promise<PartRef> {
          recorder.calling++;
          recorder.most = Math.max(recorder.most, recorder.calling);
          await new Promise((resolve) => setTimeout(resolve, ms));
          recorder.calling--;
          recorder.published.push(input.containers[position]!.content);
          return { platformId: `${network}-${input.containers[position]!.content}`, url: 'https://example.test/' };
        },
        async reconcile() {
          return 'absent';
        },
      };
    },
  };
  return recorder;
}

before(async () => {
  stack = await startPublishingStack({ CRIER_PUBLISH_CONCURRENCY: String(SLOTS), CRIER_ACCOUNT_QUOTAS: 'off' }, { worker: false });
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('a network limited to one call at a time gets one; another network uses the other slots meanwhile', async () => {
  const limited = slowNetwork('x', 300);
  const free = slowNetwork('threads', 300);
  await stack.startWorker({ x: limited.adapter, threads: free.adapter }, { x: { concurrency: 1 } });
  const xAccount = await stack.server.addAccount(org, 'x', 'limited_x');
  const threadsAccount = await stack.server.addAccount(org, 'threads', 'free_threads');
  // Drafts first, then all due at once: the worker sees every destination together.
  const ids = await Promise.all([0, 1, 2, 3].flatMap((i) => [xAccount, threadsAccount].map(async (account) => {
    const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: `post ${i}`, isDraft: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.post.id as string;
  })));
  const started = Date.now();
  await Promise.all(ids.map((id) => stack.server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { isDraft: false } })));
  for (const id of ids) assert.equal((await stack.waitForPost(org, id, undefined, 30_000)).socialAccounts[0].status, 'published');
  assert.equal(limited.most, 1, 'x never had two calls at once');
  // x waiting its turn holds no process slot: threads had at least the two x could not use.
  assert.ok(free.most >= SLOTS - 1, `threads had ${free.most} calls at once`);
  assert.deepEqual([...limited.published].sort(), ['post 0', 'post 1', 'post 2', 'post 3']);
  assert.deepEqual([...free.published].sort(), ['post 0', 'post 1', 'post 2', 'post 3']);
  assert.ok(Date.now() - started >= 4 * 300, 'x went one at a time');
});
