// `crier status` says where a published post can be seen: the network's URL for a real account, and
// for a sandbox account (`sandbox: true`, its posts on an emulator) that it is not on the real
// network, instead of an x.com address where the post does not exist. --json stays the API's answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { runCrier } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
});
after(async () => {
  await stack?.close();
});

test('status shows the URL of a real account\'s post, and a note for a sandbox account\'s', async () => {
  const real = await stack.addXAccount(org);
  const user = stack.x.addUser({ username: 'sandbox_like', accessToken: 'x-token-sandbox-like' });
  const sandboxed = await stack.server.addAccount(org, 'x', 'sandbox_like', { networkUniqueId: user.id, accessToken: 'x-token-sandbox-like', sandbox: true });
  const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [real.id, sandboxed.id], content: 'Where is it?' } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const post = await stack.waitForPost(org, created.body.post.id);
  const byAccount = new Map(post.socialAccounts.map((d: any) => [d.id, d]));
  const realUrl = (byAccount.get(real.id) as any).platformPostUrl as string;
  assert.match(realUrl, /^https:\/\/x\.com\//);

  const client = { CRIER_URL: stack.server.url, CRIER_API_KEY: org.key };
  const shown = await runCrier(['status', post.id], client);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`^x\\s+@${real.username}\\s+published\\s+${realUrl.replace(/[.?/]/g, '\\$&')}$`, 'm'));
  const sandboxPostId = (byAccount.get(sandboxed.id) as any).platformPostId as string;
  assert.match(shown.stdout, new RegExp(`^x\\s+@sandbox_like\\s+published\\s+sandbox: not on the real network \\(post ${sandboxPostId} on the emulator\\)$`, 'm'));

  const json = await runCrier(['status', post.id, '--json'], client);
  assert.deepEqual(JSON.parse(json.stdout).post.socialAccounts.map((d: any) => d.platformPostUrl).every((url: string) => url.startsWith('https://x.com/')), true);
});
