// What Crier does on Mastodon beyond publishing (../capabilities.ts): deleting a post. Replies,
// figures and imports (the wider list) are not built yet, so they are not declared.
import type { NetworkCapabilities } from '../capabilities.ts';
import { removePost } from './remove.ts';

export function mastodonCapabilities(trusted: string | undefined): NetworkCapabilities {
  return { remove: (session, post) => removePost(trusted, session, post) };
}
