// Comparing an emulator's answer with the shape a network documents (emulators/<network>/description/
// fixtures, each with the page it was read from and the date): every documented key present with the
// same JSON type, recursively (arrays by their first element), and no key the example lacks unless
// the fixture says why (`extraKeysAllowed`). Values never: ids and figures differ by nature.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

/** A documented example: where it was read, the request, the answer, and keys the emulator may add (with why). */
export interface Fixture {
  source: string;
  checked: string;
  request: { method: string; path: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string>; query?: Record<string, string> };
  response: { status: number; headers?: Record<string, string>; body: unknown };
  extraKeysAllowed?: Record<string, string>;
  /** A documented error example: when the network answers it, and its body. */
  error?: { when: string; status?: number; body: unknown };
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where `actual` departs from the documented example's shape: a key missing, a key of another JSON
 * type, or a key the example lacks (unless `allowed` names its dotted path, or `path.*` for any key
 * of that object). Arrays are compared by their first element; values never.
 */
export function shapeProblems(documented: unknown, actual: unknown, allowed: Record<string, string> = {}, path = ''): string[] {
  const here = path || '(root)';
  if (jsonType(documented) !== jsonType(actual)) return [`${here}: documented ${jsonType(documented)}, got ${jsonType(actual)}`];
  if (Array.isArray(documented) && Array.isArray(actual)) {
    if (!documented.length) return [];
    if (!actual.length) return [`${here}: documented a non-empty array, got an empty one`];
    return shapeProblems(documented[0], actual[0], allowed, path);
  }
  if (jsonType(documented) !== 'object') return [];
  const doc = documented as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  const problems: string[] = [];
  const child = (key: string) => (path ? `${path}.${key}` : key);
  for (const key of Object.keys(doc)) {
    if (!(key in got)) problems.push(`${child(key)}: missing`);
    else problems.push(...shapeProblems(doc[key], got[key], allowed, child(key)));
  }
  const anyKey = child('*') in allowed;
  for (const key of Object.keys(got)) if (!(key in doc) && !anyKey && !(child(key) in allowed)) problems.push(`${child(key)}: not in the documented example`);
  return problems;
}

/** What every fixture carries, whatever its request and answer look like. */
export interface FixtureSource {
  source: string;
  checked: string;
  extraKeysAllowed?: Record<string, string>;
}

/** A fixture whose `response` is the documented answer body itself (Meta's and Threads' pages show bodies only). */
export interface BodyFixture extends FixtureSource {
  request: { method: string; path: string; params?: Record<string, string> };
  response: unknown;
  error?: unknown;
}

export function loadFixture<F extends FixtureSource = Fixture>(dir: URL, name: string): F {
  const fixture = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as F;
  assert.match(fixture.source, /^https:\/\//, `${name}: source`);
  assert.match(fixture.checked, /^\d{4}-\d{2}-\d{2}$/, `${name}: checked`);
  for (const [key, why] of Object.entries(fixture.extraKeysAllowed ?? {})) assert.ok(why.length > 10, `${name}: extraKeysAllowed.${key} needs a reason`);
  return fixture;
}

/** Every fixture in `dir`, so that a fixture no test reads fails the suite. */
export function fixtureNames(dir: URL): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
}

export function assertDocumentedShape(fixture: Fixture, status: number, body: unknown, label: string): void {
  assert.equal(status, fixture.response.status, `${label}: status; body ${JSON.stringify(body)}`);
  assert.deepEqual(shapeProblems(fixture.response.body, body, fixture.extraKeysAllowed), [], `${label}: ${JSON.stringify(body)}`);
}

/** `actual` has the shape of the documented `example` (see shapeProblems). */
export function assertShape(example: unknown, actual: unknown, allowed: Record<string, string> = {}): void {
  assert.deepEqual(shapeProblems(example, actual, allowed), [], `answer: ${JSON.stringify(actual)}`);
}
