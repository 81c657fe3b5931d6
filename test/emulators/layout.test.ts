// Every emulator has the same rooms, so that a reader who knows one knows where to look in the next:
// server.ts (wiring and the handle), state (what it remembers), routes/ (one file per API area),
// validate (request checks against the description or the documented shapes), errors.ts (the
// network's envelopes), controls.ts (what tests may do beyond the API) and a README. Each room may be
// a file or a folder of that name; other files are the network's own domain (a CID, a TID, a tus
// upload) and are allowed beside them. Listed in emulators/README.md ("Layout").
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

const emulators = path.resolve(import.meta.dirname, '../../emulators');

/** Each room and the names it may take: `x.ts` or a folder `x/`. */
const ROOMS: Record<string, string[]> = {
  README: ['README.md'],
  server: ['server.ts'],
  state: ['state.ts', 'state/'],
  routes: ['routes/'],
  validate: ['validate.ts', 'validate/'],
  errors: ['errors.ts', 'errors/'],
  controls: ['controls.ts', 'controls/'],
};

/** Names that each room replaced: finding one means a half-done move. */
const RETIRED = ['store.ts', 'world.ts', 'inspect.ts', 'routes.ts', 'api-routes.ts', 'oauth-routes.ts'];

async function has(folder: string, name: string): Promise<boolean> {
  const wanted = name.endsWith('/') ? 'dir' : 'file';
  try {
    const s = await stat(path.join(folder, name.replace(/\/$/, '')));
    return wanted === 'dir' ? s.isDirectory() : s.isFile();
  } catch {
    return false;
  }
}

const networks = (await readdir(emulators, { withFileTypes: true }))
  .filter((e) => e.isDirectory() && e.name !== 'shared' && e.name !== 'node_modules')
  .map((e) => e.name);

test('there are thirteen emulators (Facebook serves Instagram, Google serves YouTube and Business Profile)', () => {
  assert.deepEqual(networks.sort(), ['bluesky', 'discord', 'facebook', 'google', 'linkedin', 'mastodon', 'pinterest', 'reddit', 'telegram', 'threads', 'tiktok', 'vimeo', 'x']);
});

for (const network of networks) {
  test(`emulators/${network} has every room of the common layout`, async () => {
    const folder = path.join(emulators, network);
    const missing: string[] = [];
    for (const [room, names] of Object.entries(ROOMS)) {
      const found = await Promise.all(names.map((n) => has(folder, n)));
      if (!found.some(Boolean)) missing.push(`${room} (${names.join(' or ')})`);
    }
    assert.deepEqual(missing, []);
    const retired: string[] = [];
    for (const name of RETIRED) if (await has(folder, name)) retired.push(name);
    assert.deepEqual(retired, [], 'files whose room now has the common name');
  });
}
