// Lexicon validation for the records Crier writes, reporting problems in the PDS's wording,
// e.g. 'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text'.
// Known collections: app.bsky.feed.post (in full), app.bsky.feed.like / repost, app.bsky.actor.profile.
// Objects are open (unknown keys pass) and so are unions (an unknown `$type` passes), as in atproto.
import { readFileSync } from 'node:fs';
import { isCid } from '../cid.ts';

export type Path = ReadonlyArray<string | number>;

export class LexIssue extends Error {}

export interface BlobUse {
  path: Path;
  cid: string;
  mimeType: string;
  size: number;
  accept: string[];
  /** The field's maxSize: the stored blob is held to it too. */
  maxSize: number;
}

export interface StrongRefUse {
  path: Path;
  uri: string;
  cid: string;
}

export interface Limits {
  /** Maximum bytes of an image blob in a post's app.bsky.embed.images (default: the lexicon's, BLOB_FIELDS.postImage). */
  imageMaxBytes: number;
  /** Emulator-only strictness: facet byte ranges must lie inside the text. */
  strictFacets: boolean;
}

interface BlobField {
  accept: string[];
  maxSize: number;
}

/** A blob field's constraints in the vendored official lexicon (description/README.md says which commit). */
function blobField(nsid: string, def: string, property: string): BlobField {
  const url = new URL(`../description/lexicons/${nsid.replaceAll('.', '/')}.json`, import.meta.url);
  const defs = (JSON.parse(readFileSync(url, 'utf8')) as { defs: Record<string, { properties?: Record<string, BlobField>; record?: { properties: Record<string, BlobField> } }> }).defs;
  const field = (defs[def]?.properties ?? defs[def]?.record?.properties)?.[property];
  if (!field?.accept || typeof field.maxSize !== 'number') throw new Error(`${nsid}#${def}.${property} is not a blob field with accept and maxSize`);
  return { accept: field.accept, maxSize: field.maxSize };
}

/** The blob fields the emulator validates, as the official lexicons state them. */
export const BLOB_FIELDS = {
  postImage: blobField('app.bsky.embed.images', 'image', 'image'),
  postVideo: blobField('app.bsky.embed.video', 'main', 'video'),
  linkThumb: blobField('app.bsky.embed.external', 'external', 'thumb'),
  avatar: blobField('app.bsky.actor.profile', 'main', 'avatar'),
  banner: blobField('app.bsky.actor.profile', 'main', 'banner'),
};

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const DATETIME = /^[0-9]{4}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\.[0-9]{1,20})?(Z|[+-][0-2][0-9]:[0-5][0-9])$/;
const FORMATS: Record<string, [string, (v: string) => boolean]> = {
  did: ['DID', (v) => /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/.test(v)],
  cid: ['CID string', isCid],
  'at-uri': ['at-uri', (v) => /^at:\/\/[a-zA-Z0-9._:%-]+(\/[a-zA-Z0-9.-]+(\/[a-zA-Z0-9._~:@!$&')(*+,;=%-]+)?)?$/.test(v)],
  uri: ['uri', (v) => /^[a-z][a-z0-9+.-]*:[^\s]+$/i.test(v)],
  language: ['language', (v) => /^(i|[a-z]{2,3})(-[a-zA-Z0-9]+)*$/.test(v)],
  datetime: ['datetime', (v) => DATETIME.test(v) && !v.endsWith('-00:00') && !Number.isNaN(Date.parse(v))],
};

export function jsonPath(path: Path): string {
  return `$${path.map((s) => (typeof s === 'number' ? `[${s}]` : /^[a-zA-Z_$][a-zA-Z0-9_]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'float';
  return typeof value;
}

/** Walks one record, collecting the blobs and strong references it holds. */
export class RecordValidator {
  readonly blobs: BlobUse[] = [];
  readonly refs: StrongRefUse[] = [];
  readonly limits: Limits;

  constructor(limits: Limits) {
    this.limits = limits;
  }

  fail(message: string, path: Path): never {
    throw new LexIssue(`${message} at ${jsonPath(path)}`);
  }

  expected(type: string, value: unknown, path: Path): never {
    throw new LexIssue(`Expected ${type} value type at ${jsonPath(path)} (got ${typeName(value)})`);
  }

  object(value: unknown, path: Path, required: string[] = []): Record<string, unknown> {
    if (typeName(value) !== 'object') this.expected('object', value, path);
    const obj = value as Record<string, unknown>;
    for (const key of required) if (obj[key] === undefined) this.fail(`Missing required key "${key}"`, path);
    return obj;
  }

  string(value: unknown, path: Path, opts: { maxBytes?: number; maxGraphemes?: number; format?: string } = {}): string {
    if (typeof value !== 'string') this.expected('string', value, path);
    const bytes = Buffer.byteLength(value, 'utf8');
    if (opts.maxBytes !== undefined && bytes > opts.maxBytes) this.fail(`string too big (maximum ${opts.maxBytes}, got ${bytes})`, path);
    if (opts.maxGraphemes !== undefined) {
      const count = [...graphemes.segment(value)].length;
      if (count > opts.maxGraphemes) this.fail(`grapheme too big (maximum ${opts.maxGraphemes}, got ${count})`, path);
    }
    const format = opts.format ? FORMATS[opts.format] : undefined;
    if (format && !format[1](value)) throw new LexIssue(`Invalid ${format[0]} at ${jsonPath(path)} (got ${JSON.stringify(value)})`);
    return value;
  }

  integer(value: unknown, path: Path, minimum?: number): number {
    if (typeName(value) !== 'integer') this.expected('integer', value, path);
    const num = value as number;
    if (minimum !== undefined && num < minimum) this.fail(`integer too small (minimum ${minimum}, got ${num})`, path);
    return num;
  }

  array(value: unknown, path: Path, maxLength?: number): unknown[] {
    if (!Array.isArray(value)) this.expected('array', value, path);
    if (maxLength !== undefined && value.length > maxLength) this.fail(`array too big (maximum ${maxLength}, got ${value.length})`, path);
    return value;
  }

  optional<T>(obj: Record<string, unknown>, key: string, path: Path, check: (value: unknown, path: Path) => T): T | undefined {
    return obj[key] === undefined ? undefined : check(obj[key], [...path, key]);
  }

  /** A union member: must name its `$type`; returns it so callers can validate known ones. */
  typed(value: unknown, path: Path): { type: string; obj: Record<string, unknown> } {
    const obj = typeName(value) === 'object' ? (value as Record<string, unknown>) : undefined;
    if (!obj || typeof obj.$type !== 'string') this.expected('an object or record which includes a "$type" property', value, path);
    return { type: obj.$type as string, obj };
  }

  blob(value: unknown, path: Path, accept: string[], maxSize: number): void {
    const obj = this.object(value, path);
    if (obj.$type !== 'blob') this.expected('blob', value, path);
    const ref = this.object(obj.ref, [...path, 'ref'], ['$link']);
    const cid = this.string(ref.$link, [...path, 'ref', '$link'], { format: 'cid' });
    const mimeType = this.string(obj.mimeType, [...path, 'mimeType']);
    const size = this.integer(obj.size, [...path, 'size'], 0);
    if (size > maxSize) this.fail(`blob too big (maximum ${maxSize}, got ${size})`, path);
    this.blobs.push({ path, cid, mimeType, size, accept, maxSize });
  }

  strongRef(value: unknown, path: Path): void {
    const obj = this.object(value, path, ['uri', 'cid']);
    const uri = this.string(obj.uri, [...path, 'uri'], { format: 'at-uri' });
    const cid = this.string(obj.cid, [...path, 'cid'], { format: 'cid' });
    this.refs.push({ path, uri, cid });
  }

  datetime(value: unknown, path: Path): string {
    return this.string(value, path, { format: 'datetime' });
  }
}

/** Validates `record` for `collection`; returns false when no lexicon is known for it. Throws LexIssue. */
export function validateKnownRecord(v: RecordValidator, collection: string, record: Record<string, unknown>): boolean {
  const path: Path = ['record'];
  switch (collection) {
    case 'app.bsky.feed.post':
      validatePost(v, record, path);
      return true;
    case 'app.bsky.feed.like':
    case 'app.bsky.feed.repost': {
      const obj = v.object(record, path, ['subject', 'createdAt']);
      v.strongRef(obj.subject, [...path, 'subject']);
      v.datetime(obj.createdAt, [...path, 'createdAt']);
      return true;
    }
    case 'app.bsky.actor.profile': {
      const obj = v.object(record, path);
      v.optional(obj, 'displayName', path, (x, p) => v.string(x, p, { maxBytes: 640, maxGraphemes: 64 }));
      v.optional(obj, 'description', path, (x, p) => v.string(x, p, { maxBytes: 2560, maxGraphemes: 256 }));
      v.optional(obj, 'avatar', path, (x, p) => v.blob(x, p, BLOB_FIELDS.avatar.accept, BLOB_FIELDS.avatar.maxSize));
      v.optional(obj, 'banner', path, (x, p) => v.blob(x, p, BLOB_FIELDS.banner.accept, BLOB_FIELDS.banner.maxSize));
      return true;
    }
    default:
      return false;
  }
}

function validatePost(v: RecordValidator, record: Record<string, unknown>, path: Path): void {
  const post = v.object(record, path, ['text', 'createdAt']);
  const text = v.string(post.text, [...path, 'text'], { maxBytes: 3000, maxGraphemes: 300 });
  v.optional(post, 'facets', path, (x, p) => v.array(x, p).forEach((f, i) => validateFacet(v, f, [...p, i], Buffer.byteLength(text))));
  v.optional(post, 'reply', path, (x, p) => {
    const reply = v.object(x, p, ['root', 'parent']);
    v.strongRef(reply.root, [...p, 'root']);
    v.strongRef(reply.parent, [...p, 'parent']);
  });
  v.optional(post, 'embed', path, (x, p) => validateEmbed(v, x, p, true));
  v.optional(post, 'langs', path, (x, p) => v.array(x, p, 3).forEach((l, i) => v.string(l, [...p, i], { format: 'language' })));
  v.optional(post, 'labels', path, (x, p) => {
    const { type, obj } = v.typed(x, p);
    if (type !== 'com.atproto.label.defs#selfLabels') return;
    const values = v.array(v.object(obj, p, ['values']).values, [...p, 'values'], 10);
    values.forEach((l, i) => v.string(v.object(l, [...p, 'values', i], ['val']).val, [...p, 'values', i, 'val'], { maxBytes: 128 }));
  });
  v.optional(post, 'tags', path, (x, p) => v.array(x, p, 8).forEach((t, i) => v.string(t, [...p, i], { maxBytes: 640, maxGraphemes: 64 })));
  v.datetime(post.createdAt, [...path, 'createdAt']);
}

function validateFacet(v: RecordValidator, value: unknown, path: Path, textBytes: number): void {
  const facet = v.object(value, path, ['index', 'features']);
  const index = v.object(facet.index, [...path, 'index'], ['byteStart', 'byteEnd']);
  const start = v.integer(index.byteStart, [...path, 'index', 'byteStart'], 0);
  const end = v.integer(index.byteEnd, [...path, 'index', 'byteEnd'], 0);
  if (v.limits.strictFacets && (end <= start || end > textBytes)) {
    v.fail(`facet byte range [${start}, ${end}) is not inside the ${textBytes}-byte text`, [...path, 'index']);
  }
  v.array(facet.features, [...path, 'features']).forEach((feature, i) => {
    const p = [...path, 'features', i];
    const { type, obj } = v.typed(feature, p);
    if (type === 'app.bsky.richtext.facet#mention') v.string(v.object(obj, p, ['did']).did, [...p, 'did'], { format: 'did' });
    if (type === 'app.bsky.richtext.facet#link') v.string(v.object(obj, p, ['uri']).uri, [...p, 'uri'], { format: 'uri' });
    if (type === 'app.bsky.richtext.facet#tag') v.string(v.object(obj, p, ['tag']).tag, [...p, 'tag'], { maxBytes: 640, maxGraphemes: 64 });
  });
}

function validateEmbed(v: RecordValidator, value: unknown, path: Path, allowRecord: boolean): void {
  const { type, obj } = v.typed(value, path);
  if (type === 'app.bsky.embed.images') {
    const images = v.array(v.object(obj, path, ['images']).images, [...path, 'images'], 4);
    images.forEach((item, i) => {
      const p = [...path, 'images', i];
      const img = v.object(item, p, ['image', 'alt']);
      v.blob(img.image, [...p, 'image'], BLOB_FIELDS.postImage.accept, v.limits.imageMaxBytes);
      v.string(img.alt, [...p, 'alt']);
      v.optional(img, 'aspectRatio', p, (x, ap) => aspectRatio(v, x, ap));
    });
  } else if (type === 'app.bsky.embed.video') {
    v.object(obj, path, ['video']);
    v.blob(obj.video, [...path, 'video'], BLOB_FIELDS.postVideo.accept, BLOB_FIELDS.postVideo.maxSize);
    v.optional(obj, 'alt', path, (x, p) => v.string(x, p, { maxBytes: 10000, maxGraphemes: 1000 }));
    v.optional(obj, 'captions', path, (x, p) => v.array(x, p, 20));
    v.optional(obj, 'aspectRatio', path, (x, p) => aspectRatio(v, x, p));
  } else if (type === 'app.bsky.embed.external') {
    const p = [...path, 'external'];
    const external = v.object(v.object(obj, path, ['external']).external, p, ['uri', 'title', 'description']);
    v.string(external.uri, [...p, 'uri'], { format: 'uri' });
    v.string(external.title, [...p, 'title']);
    v.string(external.description, [...p, 'description']);
    v.optional(external, 'thumb', p, (x, tp) => v.blob(x, tp, BLOB_FIELDS.linkThumb.accept, BLOB_FIELDS.linkThumb.maxSize));
  } else if (type === 'app.bsky.embed.record' && allowRecord) {
    v.strongRef(v.object(obj, path, ['record']).record, [...path, 'record']);
  } else if (type === 'app.bsky.embed.recordWithMedia' && allowRecord) {
    v.object(obj, path, ['record', 'media']);
    v.strongRef(v.object(obj.record, [...path, 'record'], ['record']).record, [...path, 'record', 'record']);
    validateEmbed(v, obj.media, [...path, 'media'], false);
  }
}

function aspectRatio(v: RecordValidator, value: unknown, path: Path): void {
  const ratio = v.object(value, path, ['width', 'height']);
  v.integer(ratio.width, [...path, 'width'], 1);
  v.integer(ratio.height, [...path, 'height'], 1);
}
