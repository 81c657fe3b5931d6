// Heavy dependencies loaded on first use instead of at start. Most processes never need most of them
// (the Bluesky client until a Bluesky account connects or posts, Stripe without Stripe configured,
// Redis without REDIS_URL, the guarded HTTP client until a user's URL is fetched), and each one
// loaded costs megabytes of memory for the life of the process and milliseconds of start (README,
// Benchmarks: `npm run bench:footprint`).
//
// What static imports guaranteed stays true:
//   - a package missing from the installation still fails the start, naming it: `checkInstalled`
//     resolves every package below (resolving reads package.json files, it loads no code);
//   - a package that fails to load fails the use that needed it, with the package's name and the
//     cause (never disguised as that use's own errors); the next use tries again.
import { ModuleLoadError, OperatorError } from './core/errors.ts';

/** Every package loaded on first use, for `checkInstalled`. */
export const LAZY_PACKAGES = ['@atproto/api', '@atproto/common-web', 'stripe', 'ioredis', 'prom-client', 'undici', '@modelcontextprotocol/sdk'] as const;

/**
 * `load` (a dynamic import) run once, on the first call; concurrent first calls share it. `what`
 * names the package (and what it is for) in the error of a load that fails.
 */
export function lazy<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new ModuleLoadError(what, error);
    }));
}

/** Fails when a package loaded on first use is not installed, so a broken installation fails the start. */
export function checkInstalled(packages: readonly string[] = LAZY_PACKAGES): void {
  const missing = packages.filter((name) => !resolvable(name));
  if (missing.length) {
    throw new OperatorError(`Crier's installation is incomplete: ${missing.join(', ')} cannot be found; run npm ci in Crier's directory.`);
  }
}

function resolvable(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}
