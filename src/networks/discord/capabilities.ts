// What Crier does on Discord beyond publishing (../capabilities.ts): deleting a post and editing its
// texts, for a webhook account and a bot account alike. A webhook can read only the messages it is told
// the id of, with no reactions' counts or replies Crier could report, so nothing else is declared.
import type { NetworkCapabilities } from '../capabilities.ts';
import { editPost } from './edit.ts';
import { removePost } from './remove.ts';

export function discordCapabilities(origin: string, configured: string | undefined): NetworkCapabilities {
  return {
    remove: (session, post) => removePost(origin, configured, session, post),
    edit: (session, post, texts) => editPost(origin, configured, session, post, texts),
  };
}
