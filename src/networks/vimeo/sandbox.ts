// The vimeo emulator in `crier start --sandbox`: the sandbox member @sandbox_vimeo, connected out of
// the box (Vimeo tokens do not expire), and the connect flow of an app registered on it. Imported only
// when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec, sandboxPeople, type EngagementSides } from '../emulator.ts';
import { VIMEO_SCOPES } from './oauth.ts';

const VIMEO_USER = { id: '100000000', username: 'sandbox_vimeo', name: 'Sandbox Vimeo' };
/** The app the sandbox account's token is issued to (the emulator does not tie tokens to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

type VimeoEmulator = Awaited<ReturnType<typeof import('../../../emulators/vimeo/server.ts')['startVimeoEmulator']>>;

export const vimeoEmulator = oauthEmulatorSpec(
  'vimeo',
  async (host) => (await import('../../../emulators/vimeo/server.ts')).startVimeoEmulator({ host }),
  (emulator) => emulator.addUser().id,
  async (vimeo) => {
    vimeo.addUser({ id: VIMEO_USER.id, username: VIMEO_USER.username, name: VIMEO_USER.name });
    // Videos transcode after one status read: a sandbox video is live within seconds.
    vimeo.setTranscodeReads(1);
    const token = vimeo.oauth.issue(VIMEO_USER.id, SANDBOX_APP, VIMEO_SCOPES).accessToken;
    return [{ network: 'vimeo', username: VIMEO_USER.username, nickname: VIMEO_USER.name, networkUniqueId: VIMEO_USER.id, accessToken: token }];
  },
  { engagement: vimeoEngagement },
);

/** Comments from made-up people, each a Vimeo member of their own, on the member's videos. */
function vimeoEngagement(vimeo: VimeoEmulator): EngagementSides {
  const person = sandboxPeople((username) => vimeo.addUser({ username, name: username }).id);
  return {
    addComment: async ({ post, parentCommentId, text, author }) => {
      // The video Crier's comments capability reads (loaded here: the engagement module is lazy).
      const videoId = (await import('./session.ts')).videoUriOf(post).slice('/videos/'.length);
      const video = vimeo.videos().find((v) => v.id === videoId && !v.deleted);
      if (!video) throw new Error(`no video ${videoId}`);
      // What POST …/comments answers anyone else when the owner turned comments off (403 3413).
      if (video.privacy.comments === 'nobody') throw new Error(`comments are off on video ${videoId}`);
      const parentId = parentCommentId === undefined ? undefined : threadOf(video.comments, videoId, parentCommentId);
      return { commentId: vimeo.addComment(videoId, { userId: person(author), text, ...(parentId ? { parentId } : {}) }) };
    },
  };
}

/** The top-level comment an answer to `commentId` goes under: Vimeo's replies are one tier, so a reply's own comment. */
function threadOf(comments: { id: string; parentId: string | null }[], videoId: string, commentId: string): string {
  const parent = comments.find((c) => c.id === commentId);
  if (!parent) throw new Error(`${commentId} is not a comment of video ${videoId}`);
  return parent.parentId ?? parent.id;
}
