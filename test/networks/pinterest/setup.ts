// What the Pinterest tests share: Crier (API and worker) behind an HTTPS front, so its own media have
// public-looking https URLs Pinterest may fetch; the Pinterest emulator as the network, trusting the
// test certificates; a connected account with a board; and helpers to post and read the outcome.
import assert from 'node:assert/strict';
import { startPinterestEmulator, type PinterestEmulator } from '../../../emulators/pinterest/server.ts';
import type { PinterestBoard } from '../../../emulators/pinterest/state.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

export interface PinterestSetup {
  pin: PinterestEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  /** The connected account, its emulator user and its token. */
  ada: TestAccount & { userId: string; token: string };
  board: PinterestBoard;
  close(): Promise<void>;
}

export async function startPinterestSetup(options: { worker?: boolean } = {}): Promise<PinterestSetup> {
  const pin = await startPinterestEmulator();
  const h = await startMediaPublishing({ CRIER_PINTEREST_BASE_URL: pin.url }, options);
  pin.trustCa(h.front.ca);
  pin.trustCa(h.stack.media.ca);
  const org = await h.server.createOrg();
  const user = pin.addUser({ username: 'ada_pins' });
  const token = pin.issueToken(user.id);
  const account = await h.server.addAccount(org, 'pinterest', 'ada_pins', { networkUniqueId: user.id, accessToken: token });
  const board = pin.addBoard({ ownerId: user.id, name: 'Recipes' });
  return {
    pin, h, org, board,
    ada: { ...account, userId: user.id, token },
    async close() {
      await h.close();
      await pin.close();
    },
  };
}

/** A post to `accounts` (default: the setup's account); its id. */
export async function createPost(s: PinterestSetup, body: Record<string, unknown>, accounts = [s.ada.id]): Promise<string> {
  const created = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts, ...body } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.post.id as string;
}

/** Posts and waits until every destination is done. */
export async function publish(s: PinterestSetup, body: Record<string, unknown>, accounts?: string[]): Promise<any> {
  return s.h.stack.waitForPost(s.org, await createPost(s, body, accounts), undefined, 60_000);
}

/** The pin the emulator holds for a published destination. */
export function pinOf(s: PinterestSetup, post: any) {
  const destination = post.socialAccounts[0];
  assert.equal(destination.status, 'published', destination.error);
  const pin = s.pin.pins().find((p) => p.id === destination.platformPostId);
  assert.ok(pin, `the emulator holds pin ${destination.platformPostId}`);
  return pin;
}

/** The error of a failed destination. */
export function failure(post: any): string {
  assert.equal(post.socialAccounts[0].status, 'failed', JSON.stringify(post.socialAccounts[0]));
  return post.socialAccounts[0].error as string;
}

/** A Crier media upload of `bytes`, as the API hands it out: {url, filename}. */
export async function media(s: PinterestSetup, filename: string, bytes: Buffer, contentType: string): Promise<{ url: string; filename: string }> {
  const uploaded = await s.h.upload(s.org, filename, bytes, contentType);
  return { url: uploaded.url, filename };
}
