// The test tree mirrors the code (issue 29): the tests of src/<room>/ are in test/<room>/, and a
// network's tests (connect, publish, crash, engagement, sandbox...) are all in test/networks/<id>/, so a
// newcomer finds them in one place. The few test folders that mirror no src/ folder are listed below,
// each with its reason; a new one must be added there, saying why.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { NETWORKS } from '../src/networks/ids.ts';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const tests = path.join(root, 'test');

/** Top-level test folders with no src/ folder of their name: why, and the tree they mirror instead. */
const OWN_FOLDERS: Record<string, { why: string; mirrors?: string }> = {
  helpers: { why: 'the shared starters: a started Crier, the publishing stack, media behind an HTTPS front, connects' },
  peers: { why: 'the real Bluesky PDS, run on its own (npm run test:peers), never by test/run.ts' },
  emulators: { why: 'the tests of the emulators', mirrors: 'emulators' },
  sdk: { why: 'the tests of the TypeScript SDK', mirrors: 'sdk' },
  n8n: { why: 'the tests of the n8n community nodes (n8n-nodes-crier)', mirrors: 'n8n' },
};

/** Folders inside a mirrored test folder that have no src/ folder of their name, and why. */
const OWN_SUBFOLDERS: Record<string, string> = {
  'http/clients': 'hosted UI clients of the API (@outstand-so/ui) driven against a started Crier: what they test is the HTTP API',
};

/** Every folder under `dir`, as paths relative to it ('a', 'a/b'); node_modules is not entered. */
function foldersUnder(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'node_modules')
    .flatMap((e) => {
      const folder = prefix ? `${prefix}/${e.name}` : e.name;
      return [folder, ...foldersUnder(dir, folder)];
    });
}

/** Every .ts file under `dir`, as a path relative to it; node_modules is not entered. */
function filesUnder(dir: string): string[] {
  const here = (prefix: string) => readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => (prefix ? `${prefix}/${e.name}` : e.name));
  return ['', ...foldersUnder(dir)].flatMap(here);
}

const topFolders = (dir: string): string[] => foldersUnder(dir).filter((folder) => !folder.includes('/'));

test('every folder under test/ is a folder of src/ of the same name, or one listed here with its reason', () => {
  const srcFolders = new Set(foldersUnder(src));
  const strays = foldersUnder(tests).filter((folder) => {
    const [top, ...rest] = folder.split('/');
    const own = OWN_FOLDERS[top!];
    if (own) return own.mirrors !== undefined && rest.length > 0 && !new Set(foldersUnder(path.join(root, own.mirrors))).has(rest.join('/'));
    if (srcFolders.has(folder)) return false;
    return !Object.keys(OWN_SUBFOLDERS).some((allowed) => folder === allowed || folder.startsWith(`${allowed}/`));
  });
  assert.deepEqual(strays, []);
});

test('every folder of src/ has a test folder of its name', () => {
  const testFolders = new Set(topFolders(tests));
  assert.deepEqual(topFolders(src).filter((room) => !testFolders.has(room)), []);
});

test('every network has its folder in src/networks/ and in test/networks/', () => {
  const inSrc = new Set(topFolders(path.join(src, 'networks')));
  const inTest = new Set(topFolders(path.join(tests, 'networks')));
  assert.deepEqual(NETWORKS.filter((id) => !inSrc.has(id)), [], 'a network without its src/networks/<id>/');
  assert.deepEqual(NETWORKS.filter((id) => !inTest.has(id)), [], 'a network without its test/networks/<id>/');
});

test("a network's test folder shares one starter, setup.ts; everything else in it is a test", () => {
  const others = NETWORKS.flatMap((id) =>
    readdirSync(path.join(tests, 'networks', id), { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.test.ts') && e.name !== 'setup.ts')
      .map((e) => `networks/${id}/${e.name}`),
  );
  assert.deepEqual(others, []);
});

test('no test file outside test/networks/ (and the emulators\' and peers\' folders) is named after one network', () => {
  const words = new Set(NETWORKS.flatMap((id) => [id, id.replace('_', '-')]));
  const named = filesUnder(tests)
    .filter((file) => !/^(networks|emulators|peers)\//.test(file))
    .filter((file) => {
      const name = path.basename(file).replace(/\.ts$/, '');
      return [...words].some((word) => new RegExp(`(^|[-.])${word}($|[-.])`).test(name));
    });
  assert.deepEqual(named, []);
});
