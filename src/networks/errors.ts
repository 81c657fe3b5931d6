// What a network's reconcile says when it cannot tell: the PublishError (src/core/errors.ts) every
// network's reconcile throws alike.
import { PublishError } from '../core/errors.ts';

/**
 * What a network's reconcile says when it cannot tell whether a container was posted: `unknown`
 * (never a repost), naming where the user should look. `orUnknown` runs a read reconcile needs and
 * turns its failure into that.
 */
export function reconcileErrors(network: string, where: string) {
  const cannotTell = (position: number, why: string) =>
    new PublishError('unknown', `${network}: could not tell whether container ${position + 1} is already posted (${why}); check ${where} before posting it again`);
  const orUnknown = async <T>(position: number, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (error) {
      throw cannotTell(position, (error as Error).message);
    }
  };
  return { cannotTell, orUnknown };
}
