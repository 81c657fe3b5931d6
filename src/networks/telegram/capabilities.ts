// What Crier does on Telegram beyond publishing (../capabilities.ts): deleting a post and editing its
// texts. A bot cannot read a chat's history, its messages' views or the replies under them through the
// Bot API except as updates pushed while it listens, so nothing else is declared.
import type { NetworkCapabilities } from '../capabilities.ts';
import { editPost } from './edit.ts';
import { removePost } from './remove.ts';

export function telegramCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    remove: (session, post) => removePost(apiUrl, session, post),
    edit: (session, post, texts) => editPost(apiUrl, session, post, texts),
  };
}
