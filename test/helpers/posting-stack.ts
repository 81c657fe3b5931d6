// What a network's publishing tests share once its emulator and Crier (with a worker) are started: post
// to one of its accounts, wait for the outcome, upload media, and close it all. The network's own
// setup.ts (test/networks/<id>/) adds how its accounts are made.
import assert from 'node:assert/strict';
import type { TestAccount, TestOrg } from './harness.ts';
import type { MediaHarness } from './media.ts';
import type { PublishingStack } from './publishing.ts';

export interface PostingStack<A extends TestAccount> {
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  create(account: A, body: object): Promise<string>;
  /** Creates and waits until the destination is terminal; the post as GET /v1/posts/:id shows it. */
  publish(account: A, body: object): Promise<any>;
  upload(filename: string, bytes: Buffer, contentType: string): Promise<string>;
  /** A file uploaded as a container's media entry: `{url, filename, altText?}`. */
  media(filename: string, bytes: Buffer, contentType: string, altText?: string): Promise<{ url: string; filename: string; altText?: string }>;
  /** Crier, then the emulator. */
  close(): Promise<void>;
}

export function postingStack<A extends TestAccount>(h: MediaHarness & { stack: PublishingStack }, org: TestOrg, emulator: { close(): Promise<void> }): PostingStack<A> {
  const create = async (account: A, body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };
  return {
    h, org, create,
    publish: async (account, body) => h.stack.waitForPost(org, await create(account, body), undefined, 30_000),
    upload: async (filename, bytes, contentType) => (await h.upload(org, filename, bytes, contentType)).url as string,
    media: async (filename, bytes, contentType, altText) => ({ url: (await h.upload(org, filename, bytes, contentType)).url as string, filename, ...(altText ? { altText } : {}) }),
    async close() {
      await h.close();
      await emulator.close();
    },
  };
}

/** The post's one destination (as GET /v1/posts/:id shows it), asserted published: its error otherwise. */
export function publishedDestination(post: any): any {
  const destination = post.socialAccounts[0];
  assert.equal(destination.status, 'published', destination.error);
  return destination;
}
