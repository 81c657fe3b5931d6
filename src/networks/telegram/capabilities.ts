// What Crier does on Telegram beyond publishing (../capabilities.ts): deleting a post. A bot cannot
// read a chat's history, its messages' views or the replies under them through the Bot API except as
// updates pushed while it listens, so nothing else is declared.
import type { NetworkCapabilities } from '../capabilities.ts';
import { removePost } from './remove.ts';

export function telegramCapabilities(apiUrl: string): NetworkCapabilities {
  return { remove: (session, post) => removePost(apiUrl, session, post) };
}
