// The node_modules paths the benchmarks need on the lent many-core machine: Crier's production
// dependencies and the load generator (autocannon), each with everything it depends on, as
// package-lock.json resolved them. The shared bundler (../shared/tools/device-bundle.sh) packs the whole
// of node_modules minus a fixed list, which the test-only clients (official network SDKs, n8n,
// Sentry, Azure …) have pushed past the 64 MiB the device tool carries (94 MB on 2026-11-29);
// bench/many-cores.sh's header says how this list replaces its node_modules archive.
// Prints one path per line (the outermost directory of each package), ffmpeg's and ffprobe's binaries
// left out as the shared bundler leaves them (its run.sh puts stand-ins in their place).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface LockedPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const root = path.resolve(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const LEFT_OUT = ['node_modules/@ffmpeg-installer', 'node_modules/@ffprobe-installer'];
const EXTRA = ['autocannon'];

/** Where Node finds `name` from the package at `from` (`''` is the project): the nearest node_modules up the path. */
function resolve(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

const needed = new Set<string>();
const queue = [...Object.keys(manifest.dependencies), ...EXTRA].map((name) => resolve('', name)).filter((p): p is string => p !== undefined);
while (queue.length) {
  const at = queue.pop()!;
  if (needed.has(at)) continue;
  needed.add(at);
  const pkg = lock.packages[at]!;
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies })) {
    const found = resolve(at, name);
    if (found) queue.push(found);
  }
}
// A nested package travels inside its parent's directory; print only the outermost ones.
// Optional packages of other platforms are in the lock but not installed.
const outermost = [...needed].filter((p) => existsSync(path.join(root, p)) && !LEFT_OUT.some((out) => p.startsWith(out)))
  .filter((p) => ![...needed].some((other) => other !== p && p.startsWith(`${other}/`)))
  .sort();
process.stdout.write(`${outermost.join('\n')}\n`);
