// The Bluesky emulator in `crier start --sandbox`: the sandbox account sandbox.test, connected with its
// app password as a user would. Imported only when the sandbox starts it: emulators are development
// code no other process loads.
import { randomBytes } from 'node:crypto';
import { emulatorSpec, sandboxPeople } from '../emulator.ts';
import { loginWithAppPassword } from './connect.ts';

const BLUESKY = { handle: 'sandbox.test', did: 'did:plc:crier2sandbox2account2aa', appPassword: 'sbox-sbox-sbox-sbox' };

/** A handle is a domain name: the made-up person's username as a label (no underscores) under .test. */
const handleLabel = (username: string) => username.toLowerCase().replace(/_+/g, '-').replace(/^-+|-+$/g, '') || 'fan';

export const blueskyEmulator = emulatorSpec(
  'bluesky',
  async (host) => (await import('../../../emulators/bluesky/server.ts')).startBlueskyEmulator({ host }),
  (bluesky) => {
    const person = sandboxPeople((username) => {
      // Two usernames may make the same label (fan_one, fan__one), or the account's own: the next free handle.
      for (let n = 1; ; n++) {
        const handle = `${handleLabel(username)}${n === 1 ? '' : n}.test`;
        try {
          const { did } = bluesky.addAccount({ handle, password: randomBytes(12).toString('hex') });
          // Their profile names them as the newcomer wrote it, which is what Crier shows as the author's name.
          bluesky.addRecord(did, 'app.bsky.actor.profile', { $type: 'app.bsky.actor.profile', displayName: username });
          return did;
        } catch (error) {
          if (!(error instanceof Error && /is taken/.test(error.message))) throw error;
        }
      }
    });
    /** A post record the PDS hosts, as a strong ref. */
    const strongRef = (uri: string) => {
      const record = bluesky.records().find((r) => r.uri === uri);
      if (!record) throw new Error(`no post ${uri}`);
      return { ref: { uri: record.uri, cid: record.cid }, value: record.value };
    };
    return {
      async sandboxAccounts() {
        bluesky.addAccount({ handle: BLUESKY.handle, did: BLUESKY.did, password: randomBytes(12).toString('hex'), appPasswords: [BLUESKY.appPassword] });
        const session = await loginWithAppPassword(bluesky.url, BLUESKY.handle, BLUESKY.appPassword);
        return [{
          network: 'bluesky', username: session.handle, nickname: 'Sandbox Bluesky', networkUniqueId: session.did,
          serviceUrl: session.serviceUrl, credential: BLUESKY.appPassword, accessToken: session.accessJwt, refreshToken: session.refreshJwt,
        }];
      },
      // A reply is a post in the other person's repo whose `reply` names the thread's root and the
      // post it answers (strong refs); Bluesky nests answers to any depth. Crier lists it by its uri.
      async addComment({ post, parentCommentId, text, author }) {
        const root = strongRef(post.root.platformId);
        const parent = parentCommentId === undefined ? root : strongRef(parentCommentId);
        const thread = (parent.value.reply as { root?: { uri?: string } } | undefined)?.root?.uri ?? parent.ref.uri;
        if (thread !== root.ref.uri) throw new Error(`${parentCommentId} is not a reply in this post's thread`);
        const record = { $type: 'app.bsky.feed.post', text, reply: { root: root.ref, parent: parent.ref }, createdAt: new Date().toISOString() };
        return { commentId: bluesky.addRecord(person(author), 'app.bsky.feed.post', record).uri };
      },
    };
  },
);
