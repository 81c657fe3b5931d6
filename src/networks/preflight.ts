// A network's preflight (contract.ts NetworkMedia.preflight) is the check its publishing side makes
// before any call, run on the post alone: the same function, whose refusal becomes a reason.
import type { PreflightPost } from './contract.ts';
import { PublishError } from './errors.ts';

/** `check` throws the PublishError publishing would fail the destination with; its message is the reason. */
export function preflightOf(check: (post: PreflightPost) => unknown): (post: PreflightPost) => string[] {
  return (post) => {
    try {
      check(post);
      return [];
    } catch (error) {
      if (error instanceof PublishError) return [error.message];
      throw error;
    }
  };
}
