// Input that no route can store or safely walk, refused the same way for every route: a NUL
// character (PostgreSQL text and jsonb cannot hold one), an unpaired UTF-16 surrogate (not Unicode:
// PostgreSQL refuses it), a number beyond double range (JSON's 1e400 parses to Infinity, which
// JSON.stringify then writes as null), and nesting deeper than any request needs (a recursive walk,
// such as a fingerprint, overflows the stack at a few thousand levels).
//
// The walk is iterative, so a deep body cannot overflow it either, and it looks at object keys too.
import type { FieldIssue } from '../core/errors.ts';
import { childField } from './ajv.ts';

/** Deeper than any request body of the API (a post is about 5 levels deep). */
export const MAX_DEPTH = 32;
/** A body full of NULs is named by its first few fields; the answer stays small. */
const MAX_ISSUES = 20;

interface Pending {
  value: unknown;
  field: string;
  depth: number;
}

/** The problems of a parsed body, query string or path parameters; `[]` when there is none. */
export function unstorableInput(input: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const pending: Pending[] = [{ value: input, field: '', depth: 0 }];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const { value, field, depth } = pending.pop()!;
    const problem = valueProblem(value, depth);
    if (problem) issues.push({ field: field || '(body)', message: problem });
    else if (isContainer(value)) pushMembers(value, field, depth, pending, issues);
  }
  return issues.slice(0, MAX_ISSUES);
}

/** An array or object to walk into; a raw body (a Buffer) is bytes, not text. */
function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

function valueProblem(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number (this one is beyond the range of a 64-bit float)';
  if (isContainer(value) && depth >= MAX_DEPTH) return `nests deeper than ${MAX_DEPTH} levels`;
  return undefined;
}

/** In Unicode mode a surrogate pair is one code point: only a surrogate standing alone matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
/** What PostgreSQL text cannot hold, every occurrence: NUL and unpaired surrogates. */
const UNSTORABLE = /\u0000|\p{Surrogate}/gu;

/** Can PostgreSQL text hold `text`? (no NUL, no unpaired surrogate) */
export function isStorableText(text: string): boolean {
  return textProblem(text) === undefined;
}

/**
 * `value` with every string made storable: NUL and unpaired surrogates become U+FFFD. For what a
 * network sends (a comment, a message, an imported post): refusing it is not ours to do, and text
 * PostgreSQL cannot hold would fail its transaction on every retry.
 */
export function storableCopy<T>(value: T): T {
  if (typeof value === 'string') return (isStorableText(value) ? value : value.replace(UNSTORABLE, '\uFFFD')) as T;
  if (Array.isArray(value)) return value.map(storableCopy) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, storableCopy(v)])) as T;
  }
  return value;
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate (\\ud800 to \\udfff), which is not valid Unicode';
  return undefined;
}

/** Pushes the members of `value`, last first so that they come off the stack in order; a bad key is an issue of its own. */
function pushMembers(value: object, field: string, depth: number, pending: Pending[], issues: FieldIssue[]): void {
  const members: Pending[] = Array.isArray(value)
    ? value.map((item, index) => ({ value: item, field: `${field}[${index}]`, depth: depth + 1 }))
    : Object.entries(value).map(([key, item]) => {
        const child = childField(field, key);
        const problem = textProblem(key);
        if (problem) issues.push({ field: child, message: `has a name that ${problem}` });
        return { value: item, field: child, depth: depth + 1 };
      });
  for (let index = members.length - 1; index >= 0; index--) pending.push(members[index]!);
}
