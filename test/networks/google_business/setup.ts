// The stack the Google Business Profile tests share: Crier's API and worker behind its HTTPS front (so
// its media URLs are real HTTPS URLs Google's fetcher can read), the Google emulator as
// mybusiness.googleapis.com trusting the test hosts' certificates, and a way to connect a fresh
// location (each test posts to its own: Crier admits 10 posts a minute per location).
import assert from 'node:assert/strict';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/google/server.ts';
import { GOOGLE_BUSINESS_SCOPES } from '../../../src/networks/google_business/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

export const APP = { clientId: 'crier-google', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

export interface ConnectedLocation extends TestAccount {
  /** "accounts/{a}/locations/{l}": the account's networkUniqueId and the localPosts parent. */
  parent: string;
  /** "locations/{l}": the key of the emulator's location controls. */
  location: string;
  userId: string;
  token: string;
}

export interface GbpStack {
  google: GoogleEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  /** A new user's business account with one location, connected to Crier (`scopes`: what the token grants). */
  connectLocation(title: string, scopes?: readonly string[]): Promise<ConnectedLocation>;
  /** POST /v1/posts, asserting it was accepted. */
  create(account: TestAccount, body: object): Promise<string>;
  /** Created, then waited for until every destination ended. */
  publish(account: TestAccount, body: object): Promise<any>;
  close(): Promise<void>;
}

export async function startGbpStack(options: { worker?: boolean } = {}): Promise<GbpStack> {
  const google = await startGoogleEmulator();
  google.addApp(APP);
  const h = await startMediaPublishing({ CRIER_GOOGLE_BUSINESS_BASE_URL: google.url }, options);
  google.business.trustCa(h.front.ca);
  google.business.trustCa(h.stack.media.ca);
  const org = await h.server.createOrg();

  const create = async (account: TestAccount, body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };

  return {
    google,
    h,
    org,
    async connectLocation(title, scopes = GOOGLE_BUSINESS_SCOPES) {
      const user = google.addUser({ name: `${title} Owner`, channel: null, businessAccounts: [{ accountName: title, type: 'LOCATION_GROUP', locations: [{ title }] }] });
      const account = user.businessAccounts[0]!;
      const location = account.locations[0]!.name;
      const parent = `${account.name}/${location}`;
      const token = google.oauth.issue(user.id, APP.clientId, [...scopes]).accessToken;
      const connected = await h.server.addAccount(org, 'google_business', title, { networkUniqueId: parent, accessToken: token });
      return { ...connected, parent, location, userId: user.id, token };
    },
    create,
    publish: async (account, body) => h.stack.waitForPost(org, await create(account, body), undefined, 30_000),
    async close() {
      await h.close();
      await google.close();
    },
  };
}

/** The destination published; what Google stored for it. */
export function storedFor(google: GoogleEmulator, post: any) {
  const destination = post.socialAccounts[0];
  assert.equal(destination.status, 'published', destination.error);
  const stored = google.business.posts().find((p) => p.name === destination.platformPostId);
  assert.ok(stored, `Google has ${destination.platformPostId}`);
  return stored;
}

export function failedWith(post: any): string {
  assert.equal(post.socialAccounts[0].status, 'failed', JSON.stringify(post.socialAccounts[0]));
  return post.socialAccounts[0].error as string;
}
