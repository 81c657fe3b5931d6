// The reddit emulator in `crier start --sandbox`: the sandbox redditor u/sandbox_redditor, connected
// out of the box, with r/crier_sandbox to post to (two link flairs to choose from), and the connect
// flow of an app registered on it (the same redditor consents). Imported only when the sandbox starts
// it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { REDDIT_SCOPES } from './oauth.ts';

// A fixed id: the account is the same one on every sandbox run (its networkUniqueId is t2_<id>).
const REDDITOR = { id: 'sbx1redd', name: 'sandbox_redditor' };
/** The subreddit the guide posts to. */
export const SANDBOX_SUBREDDIT = 'crier_sandbox';
const SANDBOX_APP = { clientId: 'crier-sandbox', clientSecret: 'crier-sandbox-secret', redirectUris: [] };
const FLAIR = { type: 'text', text_editable: false, text_color: 'dark', mod_only: false, css_class: '', allowable_content: 'all', max_emojis: 10 } as const;

export const redditEmulator = oauthEmulatorSpec(
  'reddit',
  async (host) => (await import('../../../emulators/reddit/server.ts')).startRedditEmulator({ host }),
  // The user who consents on connect is the sandbox redditor, created by sandboxAccounts() first.
  () => REDDITOR.id,
  async (emulator) => {
    const user = emulator.addUser(REDDITOR);
    emulator.addSubreddit({
      name: SANDBOX_SUBREDDIT,
      flairs: [
        { ...FLAIR, id: 'sandbox-flair-news', text: 'News', background_color: '#0079d3', richtext: [] },
        { ...FLAIR, id: 'sandbox-flair-question', text: 'Question', background_color: '', richtext: [] },
      ],
    });
    emulator.addApp(SANDBOX_APP);
    const token = emulator.oauth.issue(user.id, SANDBOX_APP.clientId, REDDIT_SCOPES, false).accessToken;
    return [{
      network: 'reddit', username: REDDITOR.name, nickname: REDDITOR.name, networkUniqueId: `t2_${user.id}`, accessToken: token,
      exampleBlock: { subreddit: SANDBOX_SUBREDDIT, title: 'Hello from Crier' },
    }];
  },
  {
    engagement: (emulator) => ({
      // A comment is a t1_ thing under the submission, or under the comment it answers: Reddit nests
      // answers to any depth. Its author is a redditor by that name (the emulator gives each name
      // one t2_ fullname); Crier lists comments by their id, the fullname without t1_.
      addComment: async ({ username, post, parentCommentId, text, author }) => {
        // Usernames are unique on Reddit: that one would be the account commenting on its own post.
        if (author.toLowerCase() === username.toLowerCase()) throw new Error(`u/${author} is the account itself: someone else comments`);
        const id = post.root.platformId.replace(/^t3_/, '');
        const submission = emulator.submissions().find((s) => s.id === id);
        if (!submission) throw new Error(`no submission ${post.root.platformId}`);
        const parent = parentCommentId === undefined ? undefined : emulator.comments(id).find((c) => c.id === parentCommentId.replace(/^t1_/, ''));
        if (parentCommentId !== undefined && !parent) throw new Error(`no comment ${parentCommentId} under this post`);
        // Reddit takes no comment on a deleted submission or comment (DELETED_COMMENT).
        if (submission.deleted || parent?.deleted) throw new Error('that comment has been deleted');
        return { commentId: emulator.addComment({ on: parent?.name ?? submission.name, author, body: text }).id };
      },
    }),
  },
);
