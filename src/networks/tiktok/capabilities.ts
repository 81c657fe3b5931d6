// What Crier does on TikTok beyond publishing (../capabilities.ts): the creator's preview (what the
// account may post now), the creator's own videos, and figures. No delete and no comments: TikTok has
// no such API for an ordinary app (README.md). Each part loads its module on first use: a process that
// never reads them does not carry them.
import type { NetworkCapabilities } from '../capabilities.ts';

export function tiktokCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    preview: async (session, post) => (await import('./preview.ts')).creatorPreview(apiUrl, session, post),
    ownPosts: async (session, options) => (await import('./display.ts')).ownVideos(apiUrl, session, options),
    analytics: {
      post: async (session, post) => (await import('./display.ts')).videoMetrics(apiUrl, session, post),
      account: async (session) => (await import('./display.ts')).creatorMetrics(apiUrl, session),
    },
  };
}
