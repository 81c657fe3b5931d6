// A network's capabilities whose code loads on their first use rather than at start (as its
// publishing side does, lazy-adapter.ts): a process that never reads a comment or a figure does not
// carry every network's engagement modules. Which capabilities exist must be known at start (routes
// say which networks have comments, the contract suite checks them), so the network declares their
// shape here; `verifyLazyShape` (the contract suite) checks that the loaded module has exactly that shape.
import { lazy } from '../lazy.ts';
import type { AccountListing, NetworkCapabilities } from './capabilities.ts';

/** `true` for each async function the module implements; a listing by its path and summary. */
export interface CapabilityShape {
  [name: string]: true | CapabilityShape | Omit<AccountListing, 'list'>[];
}

const LOADER = Symbol('lazy capabilities');

/** What is given as it is, beside the lazy ones (a part of a capability, such as messages.scopes). */
export type EagerCapabilities = { [K in keyof NetworkCapabilities]?: Partial<NonNullable<NetworkCapabilities[K]>> };

interface LazyCapabilities extends NetworkCapabilities {
  [LOADER]?: { shape: CapabilityShape; eager: EagerCapabilities; load: () => Promise<NetworkCapabilities> };
}

/**
 * Capabilities of `shape` whose calls load `load` (once) and call the same function of what it
 * answers. `eager` ones (synchronous: an inbound webhook's checks; data: a messaging scope list)
 * are given as they are.
 */
export function lazyCapabilities(what: string, shape: CapabilityShape, load: () => Promise<NetworkCapabilities>, eager: EagerCapabilities = {}): NetworkCapabilities {
  const loaded = lazy(what, load);
  const built = merged(proxyOf(shape, [], loaded), eager as Record<string, unknown>) as unknown as LazyCapabilities;
  Object.defineProperty(built, LOADER, { value: { shape, eager, load: loaded }, enumerable: false });
  return built;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `eager` over `lazyOnes`, one level deep: `messages: { scopes }` given beside a lazy `messages.send`. */
function merged(lazyOnes: Record<string, unknown>, eager: Record<string, unknown>): Record<string, unknown> {
  const out = { ...lazyOnes };
  for (const [name, value] of Object.entries(eager)) {
    out[name] = isPlainObject(value) && isPlainObject(out[name]) ? { ...(out[name] as Record<string, unknown>), ...value } : value;
  }
  return out;
}

function proxyOf(shape: CapabilityShape, path: string[], loaded: () => Promise<unknown>): Record<string, unknown> {
  const proxy: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(shape)) {
    const at = [...path, name];
    if (entry === true) proxy[name] = async (...args: unknown[]) => (functionAt(await loaded(), at) as (...a: unknown[]) => Promise<unknown>)(...args);
    else if (Array.isArray(entry)) proxy[name] = entry.map((listing, i) => ({ ...listing, list: async (...args: unknown[]) => (functionAt(await loaded(), [...at, String(i), 'list']) as (...a: unknown[]) => Promise<unknown>)(...args) }));
    else proxy[name] = proxyOf(entry, at, loaded);
  }
  return proxy;
}

function functionAt(root: unknown, path: string[]): unknown {
  let value: any = root;
  for (const key of path) value = value?.[key];
  if (typeof value !== 'function') throw new Error(`the loaded capabilities have no function ${path.join('.')}`);
  return value;
}

/**
 * For the contract suite: the differences between a network's declared lazy shape and the module it
 * loads (a function declared but missing, one implemented but not declared, a listing's path or
 * summary); none for capabilities that are not lazy.
 */
export async function verifyLazyShape(capabilities: NetworkCapabilities): Promise<string[]> {
  const lazyOne = (capabilities as LazyCapabilities)[LOADER];
  if (!lazyOne) return [];
  // What is given eagerly need not be in the loaded module; where it is, it is not compared.
  const implemented: Record<string, unknown> = { ...(await lazyOne.load()) };
  for (const [name, value] of Object.entries(lazyOne.eager)) {
    const loadedOne = implemented[name];
    if (isPlainObject(value) && isPlainObject(loadedOne) && name in lazyOne.shape) {
      implemented[name] = Object.fromEntries(Object.entries(loadedOne).filter(([key]) => !(key in value)));
    } else delete implemented[name];
  }
  return differences(lazyOne.shape, implemented, '');
}

function differences(shape: CapabilityShape, implemented: Record<string, unknown>, prefix: string): string[] {
  const found: string[] = [];
  for (const name of new Set([...Object.keys(shape), ...Object.keys(implemented)])) {
    const at = `${prefix}${name}`;
    const declared = shape[name];
    const actual = implemented[name];
    if (declared === undefined) found.push(`${at} is implemented but not declared`);
    else if (actual === undefined) found.push(`${at} is declared but not implemented`);
    else if (declared === true) { if (typeof actual !== 'function') found.push(`${at} is not a function`); }
    else if (Array.isArray(declared)) {
      const listings = actual as AccountListing[];
      if (!Array.isArray(listings) || listings.length !== declared.length) found.push(`${at}: ${declared.length} declared, ${Array.isArray(listings) ? listings.length : 'none'} implemented`);
      else declared.forEach((d, i) => { if (d.path !== listings[i]!.path || d.summary !== listings[i]!.summary) found.push(`${at}[${i}] is ${listings[i]!.path} "${listings[i]!.summary}", declared ${d.path} "${d.summary}"`); });
    } else found.push(...differences(declared, actual as Record<string, unknown>, `${at}.`));
  }
  return found;
}
