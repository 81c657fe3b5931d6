// What a connected Instagram account can do beyond publishing (../capabilities.ts), through Graph
// with its Page's token: delete media, list its own media, read and answer comments, read figures.
import type { NetworkCapabilities } from '../capabilities.ts';
import { mediaAnalytics } from './analytics.ts';
import { mediaComments } from './comments.ts';
import { ownMedia } from './own-media.ts';

export function instagramCapabilities(apiUrl: string): NetworkCapabilities {
  const media = ownMedia(apiUrl);
  return {
    remove: media.remove,
    ownPosts: media.ownPosts,
    comments: mediaComments(apiUrl),
    analytics: mediaAnalytics(apiUrl),
  };
}
