// The Vimeo sandbox (`crier start --sandbox`): its member @sandbox_vimeo is seeded with a token that
// publishes a video through the adapter, end to end against the sandbox's emulator.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { PublishWait } from '../../../src/core/errors.ts';
import { createVimeoAdapter } from '../../../src/networks/vimeo/adapter.ts';
import { vimeoEmulator } from '../../../src/networks/vimeo/sandbox.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import type { PartRef } from '../../../src/core/post.ts';

test('the sandbox member is connected out of the box and its video is published', async (t) => {
  const sandbox = await vimeoEmulator.start('127.0.0.1');
  t.after(() => sandbox.close());
  const [seed, ...others] = await sandbox.sandboxAccounts!();
  assert.equal(others.length, 0);
  assert.deepEqual([seed!.network, seed!.username, seed!.nickname], ['vimeo', 'sandbox_vimeo', 'Sandbox Vimeo']);

  const bytes = Buffer.alloc(3000, 7);
  const input = (checkpoint?: Record<string, unknown>): PublishInput => ({
    account: { id: 1, orgId: 1, network: 'vimeo', username: seed!.username, networkUniqueId: seed!.networkUniqueId, serviceUrl: null, accessToken: seed!.accessToken!, refreshToken: null, credential: null },
    containers: [{ content: 'Hello from the sandbox', media: [{ url: 'https://media.example/hello.mp4', filename: 'hello.mp4' }] }],
    block: undefined,
    fetchMedia: () => { throw new Error('the adapter reads ranges'); },
    openMedia: async () => ({ size: bytes.length, contentType: 'video/mp4', read: () => Readable.from([bytes]), bytes: async () => bytes }),
    userFetch: fetch,
    saveTokens: async () => {},
    ...(checkpoint ? { checkpoint } : {}),
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  const adapter = createVimeoAdapter({ apiUrl: sandbox.url, pollMs: 1 });
  let checkpoint: Record<string, unknown> | undefined;
  let ref: PartRef | undefined;
  for (let step = 0; step < 10 && !ref; step++) {
    const prepared = await adapter.prepare(input(checkpoint));
    try {
      ref = await prepared.publishPart(0, prepared.reserve(0), undefined);
    } catch (error) {
      if (!(error instanceof PublishWait)) throw error;
      checkpoint = error.checkpoint!;
    }
  }
  assert.match(ref?.url ?? '', /^https:\/\/vimeo\.com\/\d+$/);
});
