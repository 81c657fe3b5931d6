// A dry run's look at the creator's settings (creator_info, the call a direct post starts with): the
// privacy level they are offered now and the interactions they turned off. The video's length
// against max_video_post_duration_sec needs the file's bytes, so it is judged when publishing.
import type { AccountSession } from '../capabilities.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { checkAgainstCreator, postModeOf } from './bodies.ts';
import { TikTokClient } from './client.ts';
import type { TiktokBlock } from './options.ts';
import { shapeOf } from './shape.ts';

export async function creatorPreview(apiUrl: string, session: AccountSession, post: PreflightPost): Promise<string[]> {
  const block = (post.block ?? {}) as TiktokBlock;
  // An inbox draft is finished by the creator in the app: their settings apply there, not here.
  if (postModeOf(block) !== 'DIRECT_POST') return [];
  let kind: 'video' | 'photo';
  try {
    kind = shapeOf(post);
  } catch {
    return []; // the preflight already says what is wrong with the post itself
  }
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'tiktok: the account has no access token; reconnect it', undefined, 'auth');
  const creator = await new TikTokClient(apiUrl, token).creatorInfo();
  try {
    checkAgainstCreator(block, creator, kind === 'video' ? { seconds: undefined } : undefined);
    return [];
  } catch (error) {
    if (error instanceof PublishError) return [error.message];
    throw error;
  }
}
