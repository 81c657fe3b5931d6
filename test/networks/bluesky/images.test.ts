// Image sizes Bluesky takes, through Crier's API and worker with the PDS emulator as the network:
// app.bsky.embed.images' image blob may be up to 2,000,000 bytes since 2026-04-08 (the official
// lexicon's maxSize, formerly 1,000,000). A 1.5 MB image is published as a blob of exactly its bytes;
// one past 2,000,000 bytes fails its destination before anything is uploaded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cidForBlob } from '../../../emulators/bluesky/cid.ts';
import type { TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';

/** A valid PNG followed by padding to `size` bytes (decoders stop at IEND; the PDS sniffs PNG). */
const pngOf = (size: number) => Buffer.concat([PNG_1X1, Buffer.alloc(size - PNG_1X1.length, 7)]);

describe('Bluesky image sizes', () => {
  let stack: PublishingStack;
  let org: TestOrg;

  before(async () => {
    stack = await startPublishingStack();
    org = await stack.server.createOrg();
  });
  after(() => stack.close());

  const publishImage = async (name: string, bytes: Buffer) => {
    stack.media.route(`/${name}`, (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(bytes); });
    const account = await stack.addBlueskyAccount(org);
    const created = await stack.server.request('POST', '/v1/posts', {
      key: org.key, body: { accounts: [account.id], containers: [{ content: `image ${name}`, media: [{ url: `${stack.media.url}/${name}`, filename: name }] }] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return { account, destination: (await stack.waitForPost(org, created.body.post.id)).socialAccounts[0] };
  };

  it('a 1.5 MB image (over the former 1 MB cap) is published as a blob of exactly its bytes', async () => {
    const bytes = pngOf(1_500_000);
    const { account, destination } = await publishImage('big.png', bytes);
    assert.equal(destination.status, 'published', destination.error);
    const record = stack.bsky.records(account.did).find((r) => r.uri === destination.platformPostId)!;
    const image = (record.value as any).embed.images[0].image;
    assert.deepEqual([image.ref.$link, image.mimeType, image.size], [cidForBlob(bytes), 'image/png', 1_500_000]);
  });

  it('an image of 2,000,001 bytes fails its destination, naming the cap, before any upload', async () => {
    const { account, destination } = await publishImage('huge.png', pngOf(2_000_001));
    assert.equal(destination.status, 'failed');
    assert.equal(destination.error, 'bluesky: huge.png is 2000001 bytes; Bluesky accepts images up to 2000000 bytes');
    assert.deepEqual(stack.bsky.blobs(account.did), []);
  });
});
