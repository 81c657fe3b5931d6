// What Crier does on Discord beyond publishing (../capabilities.ts): deleting a post. A webhook can read
// only the messages it is told the id of, with no reactions' counts or replies Crier could report, so
// nothing else is declared.
import type { NetworkCapabilities } from '../capabilities.ts';
import { removePost } from './remove.ts';

export function discordCapabilities(origin: string, configured: string | undefined): NetworkCapabilities {
  return { remove: (session, post) => removePost(origin, configured, session, post) };
}
