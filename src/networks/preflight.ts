// A network's judgement (contract.ts NetworkMedia.judge) throws the PublishError publishing would fail
// the destination with; the dry run and the create read that refusal as a reason instead.
import type { JudgedWhen } from './contract.ts';
import type { PreflightPost } from '../core/post.ts';
import type { NetworkId } from '../core/network-id.ts';
import { PublishError } from '../core/errors.ts';
import { networkFor } from './registry.ts';

/** Why `network` would refuse `post`: the judgement's message, or undefined when it would not. */
export function refusalOf(network: NetworkId, post: PreflightPost, when: JudgedWhen = 'publish'): string | undefined {
  try {
    networkFor(network).media.judge(post, when);
    return undefined;
  } catch (error) {
    if (error instanceof PublishError) return error.message;
    throw error;
  }
}
