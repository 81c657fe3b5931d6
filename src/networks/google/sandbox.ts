// The Google emulator in `crier start --sandbox`: it serves YouTube and Google Business Profile, with
// two accounts connected out of the box: the YouTube channel @sandbox_youtube, through the operator's
// app (the managed key: its uploads count against the shared daily pool, as on a real install), and
// the Business Profile location "Sandbox Bakery" (verified). Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { managedAppClientId, oauthEmulatorSpec, sandboxPeople, type EngagementSides } from '../emulator.ts';
import { GOOGLE_BUSINESS_SCOPES } from '../google_business/oauth.ts';
import type { SandboxAccountSeed } from '../../sandbox/contract.ts';
import { YOUTUBE_SCOPES } from '../youtube/oauth.ts';

const YOUTUBE_USER = { id: '104000000000000000001', name: 'Sandbox YouTube', channelId: 'UCsandboxYouTubeChannel00', handle: '@sandbox_youtube' };
/** The app the Business Profile account's token is issued to (the emulator does not tie API calls to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

type GoogleEmulator = Awaited<ReturnType<typeof import('../../../emulators/google/server.ts')['startGoogleEmulator']>>;

export const googleEmulator = oauthEmulatorSpec(
  'google',
  async (host, fetchMedia) => (await import('../../../emulators/google/server.ts')).startGoogleEmulator({ host, fetchMedia }),
  (emulator) => emulator.addUser().id,
  // The channel first: the emulator numbers what it creates, so the accounts keep their ids run after run.
  async (google) => [youtubeChannel(google), businessLocation(google)],
  { managedApp: true, engagement: youtubeEngagement },
);

/**
 * Comments from made-up people on the channel's videos: each person is a Google user with a channel of
 * their own, shown by handle as YouTube shows commenters. Business Profile posts take no comments.
 */
function youtubeEngagement(google: GoogleEmulator): EngagementSides {
  const person = sandboxPeople((username) =>
    google.addUser({ name: username, channel: { title: username, customUrl: `@${username}` }, businessAccounts: [] }).channel!.id);
  return {
    addComment: async ({ network, post, parentCommentId, text, author }) => {
      if (network !== 'youtube') throw new Error(`${network} posts take no comments`);
      const videoId = post.root.platformId;
      const parentId = parentCommentId === undefined ? undefined : threadOf(google, videoId, parentCommentId);
      const commentId = google.youtube.addComment(videoId, { text, authorChannelId: person(author), authorDisplayName: `@${author}`, ...(parentId ? { parentId } : {}) });
      return { commentId };
    },
  };
}

/** The top-level comment an answer to `commentId` goes under: YouTube threads are one tier, so a reply's thread. */
function threadOf(google: GoogleEmulator, videoId: string, commentId: string): string {
  const parent = google.youtube.comments(videoId).find((c) => c.commentId === commentId);
  if (!parent) throw new Error(`${commentId} is not a comment of video ${videoId}`);
  return parent.parentId ?? parent.commentId;
}

function youtubeChannel(google: GoogleEmulator): SandboxAccountSeed {
  google.addUser({ id: YOUTUBE_USER.id, name: YOUTUBE_USER.name, channel: { id: YOUTUBE_USER.channelId, title: YOUTUBE_USER.name, customUrl: YOUTUBE_USER.handle }, businessAccounts: [] });
  const tokens = google.oauth.issue(YOUTUBE_USER.id, managedAppClientId('google'), [...YOUTUBE_SCOPES]);
  return {
    network: 'youtube', username: YOUTUBE_USER.handle, nickname: YOUTUBE_USER.name, networkUniqueId: YOUTUBE_USER.channelId,
    accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, managedApp: true,
  };
}

function businessLocation(google: GoogleEmulator): SandboxAccountSeed {
  const user = google.addUser({ name: 'Sandbox Baker', channel: null, businessAccounts: [{ accountName: 'Sandbox Bakery', type: 'LOCATION_GROUP', locations: [{ title: 'Sandbox Bakery' }] }] });
  const account = user.businessAccounts[0]!;
  // A token that does not expire (null lifetime): nothing refreshes it in the sandbox.
  const token = google.oauth.issue(user.id, SANDBOX_APP, [...GOOGLE_BUSINESS_SCOPES], false, null);
  return {
    network: 'google_business', username: 'sandbox_bakery', nickname: 'Sandbox Bakery',
    networkUniqueId: `${account.name}/${account.locations[0]!.name}`, accessToken: token.accessToken,
  };
}
