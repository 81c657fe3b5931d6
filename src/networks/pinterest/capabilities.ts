// What Crier does on Pinterest beyond publishing (../capabilities.ts): the boards a client picks
// `pinterest.board_id` from, deleting a pin, the account's own pins, and figures. No comments
// (README.md). Each part loads its module on first use: a process that never reads them does not
// carry them.
import type { NetworkCapabilities } from '../capabilities.ts';

const BOARDS_LISTING = { path: 'boards', summary: 'The account\'s Pinterest boards (id, name, description, privacy): the values pinterest.board_id takes' };

export function pinterestCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    listings: [{ ...BOARDS_LISTING, list: async (session, params) => (await import('./boards.ts')).listBoards(apiUrl, session, params) }],
    remove: async (session, post) => (await import('./posts.ts')).removePin(apiUrl, session, post),
    ownPosts: async (session, options) => (await import('./posts.ts')).ownPins(apiUrl, session, options),
    analytics: {
      post: async (session, post) => (await import('./analytics.ts')).pinMetrics(apiUrl, session, post),
      account: async (session, period) => (await import('./analytics.ts')).accountMetrics(apiUrl, session, period),
    },
  };
}
