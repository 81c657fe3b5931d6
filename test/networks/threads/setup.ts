// What the Threads engagement tests share (publish and crash start Crier with test/helpers/media.ts): the emulator, Crier's registry pointed at it (the
// capabilities as Crier builds them), a connected profile as an AccountSession, and posts published
// through Crier's own Threads client (container, then threads_publish; later containers reply to the root).
import { startThreadsEmulator, type ThreadsEmulator, type ThreadsEmulatorOptions } from '../../../emulators/threads/server.ts';
import { loadConfig } from '../../../src/config.ts';
import { NETWORK_LIST, createNetworkRegistry } from '../../../src/networks/registry.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { ThreadsClient } from '../../../src/networks/threads/client.ts';
import { THREADS_SCOPES } from '../../../src/networks/threads/oauth.ts';

export const CLIENT_ID = 'crier-threads';

export interface Profile {
  userId: string;
  username: string;
  token: string;
  session: AccountSession;
}

export interface EngagementSetup {
  th: ThreadsEmulator;
  caps: NetworkCapabilities;
  profile(username: string, scopes?: string[]): Profile;
  /** A post published as `profile`: the root, then each later text as a reply to the root. */
  publish(profile: Profile, texts: string[]): Promise<PublishedPost>;
  /** The emulator's calls since `from` (an index from calls().length), as "METHOD path". */
  callsSince(from: number): { method: string; path: string; params: Record<string, string | undefined>; status: number }[];
  close(): Promise<void>;
}

let accountIds = 0;

export async function engagementSetup(options: ThreadsEmulatorOptions = {}): Promise<EngagementSetup> {
  const th = await startThreadsEmulator(options);
  const caps = createNetworkRegistry(loadConfig({ CRIER_THREADS_BASE_URL: th.url }, NETWORK_LIST)).capabilities('threads');
  return {
    th,
    caps,
    profile(username, scopes = THREADS_SCOPES) {
      const user = th.addUser({ username });
      const token = th.issueLongLived(user.id, CLIENT_ID, scopes);
      accountIds += 1;
      const session: AccountSession = {
        account: { id: accountIds, orgId: 1, network: 'threads', username, networkUniqueId: user.id, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
        saveTokens: async () => {},
        userFetch: fetch,
      };
      return { userId: user.id, username, token, session };
    },
    async publish(profile, texts) {
      const client = new ThreadsClient(th.url, profile.token, profile.userId);
      const parts = [];
      for (const [index, text] of texts.entries()) {
        const container = await client.createContainer({ media_type: 'TEXT', text, ...(index > 0 ? { reply_to_id: parts[0]!.platformId } : {}) });
        const id = await client.publish(container);
        parts.push({ platformId: id, url: (await client.permalink(id))! });
      }
      return { root: parts[0]!, parts, block: {} };
    },
    callsSince: (from) => th.calls().slice(from),
    close: () => th.close(),
  };
}
