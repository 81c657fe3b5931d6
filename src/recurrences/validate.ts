// POST /v1/recurrences' body: a post body (judged by the posts' own parser, posts/validate.ts) plus the
// rule fields, which are taken out before the post body is judged. Every problem is a per-field issue;
// each variation is judged as the post it will become.
import type { FieldIssue } from '../core/errors.ts';
import { DATE_TIME_MESSAGE, parseDateTime } from '../validation/date-time.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { isPlainObject } from '../validation/strip.ts';
import { parseCreateBody, type CreateRequest } from '../posts/validate.ts';
import { DAYS, type Day } from '../queues/slots.ts';
import { canonicalZone } from '../validation/time-zone.ts';
import type { Rule, Schedule } from './rule.ts';

export const RULE_FIELDS = ['every', 'weekly', 'startAt', 'count', 'until', 'variations'] as const;
export const MAX_COUNT = 1000;
export const MAX_VARIATIONS = 20;
/** A startAt this far in the past is still "now" (a client's clock, a slow request). */
const PAST_TOLERANCE_MS = 5 * 60_000;
const MAX_INTERVAL_DAYS = 365;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A variation as stored: the content fields that replace the body's own. */
export type Variation = { content: string } | { containers: unknown[] };

export interface RecurrenceInput {
  /** The post body of every occurrence, without scheduledAt (the rule sets it). */
  post: Record<string, unknown>;
  variations: Variation[];
  schedule: Schedule;
  /** The parsed post of each content (the body's own first): their accounts are judged once resolved. */
  requests: CreateRequest[];
  warnings: string[];
}

export type ParsedRecurrence = { ok: true; value: RecurrenceInput } | { ok: false; details: FieldIssue[] };

export function parseRecurrenceBody(body: unknown, now: Date, fetch: FetchPolicy): ParsedRecurrence {
  if (!isPlainObject(body)) return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  const post = Object.fromEntries(Object.entries(body).filter(([key]) => !(RULE_FIELDS as readonly string[]).includes(key)));
  const details: FieldIssue[] = [];
  if (post.scheduledAt !== undefined) details.push({ field: 'scheduledAt', message: 'is set by the rule for each occurrence; send "startAt" instead' });
  if (post.isDraft !== undefined) details.push({ field: 'isDraft', message: 'a recurrence has no drafts: pause it instead (PATCH with "status": "paused")' });
  delete post.scheduledAt;
  delete post.isDraft;

  const parsed = parseCreateBody(post, now, fetch);
  if (!parsed.ok) details.push(...parsed.details);
  const rule = parseRule(body, details);
  const schedule = parseBounds(body, now, details);
  const variations = parseVariations(body.variations, post, now, fetch, details);
  if (details.length || !parsed.ok || !rule || !schedule || !variations) return { ok: false, details };
  return {
    ok: true,
    value: {
      post,
      variations: variations.map((v) => v.variation),
      schedule: { rule, ...schedule },
      requests: [parsed.request, ...variations.map((v) => v.request)],
      warnings: parsed.request.warnings,
    },
  };
}

export function parseRule(body: Record<string, unknown>, details: FieldIssue[]): Rule | undefined {
  const { every, weekly } = body;
  if ((every === undefined) === (weekly === undefined)) {
    details.push({ field: 'every', message: 'send exactly one of "every" (an interval) or "weekly" (days at a local time)' });
    return undefined;
  }
  return every !== undefined ? parseEvery(every, details) : parseWeekly(weekly, details);
}

function parseEvery(every: unknown, details: FieldIssue[]): Rule | undefined {
  if (!isPlainObject(every)) {
    details.push({ field: 'every', message: 'must be an object such as {"days": 2} or {"hours": 6}' });
    return undefined;
  }
  const before = details.length;
  for (const key of Object.keys(every)) {
    if (key !== 'days' && key !== 'hours') details.push({ field: `every.${key}`, message: 'is not a unit of an interval; allowed: days, hours' });
  }
  const days = wholeNumber(every.days, 'every.days', details);
  const hours = wholeNumber(every.hours, 'every.hours', details);
  if (details.length > before) return undefined;
  if (days * 24 + hours < 1) details.push({ field: 'every', message: 'must be at least 1 hour' });
  else if (days * 24 + hours > MAX_INTERVAL_DAYS * 24) details.push({ field: 'every', message: `must be at most ${MAX_INTERVAL_DAYS} days` });
  return details.length > before ? undefined : { every: { days, hours } };
}

function wholeNumber(value: unknown, field: string, details: FieldIssue[]): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  details.push({ field, message: 'must be a whole number, 0 or more' });
  return 0;
}

function parseWeekly(weekly: unknown, details: FieldIssue[]): Rule | undefined {
  if (!isPlainObject(weekly)) {
    details.push({ field: 'weekly', message: 'must be an object such as {"days": ["monday"], "time": "09:00", "timeZone": "Europe/Paris"}' });
    return undefined;
  }
  const before = details.length;
  for (const key of Object.keys(weekly)) {
    if (!['days', 'time', 'timeZone'].includes(key)) details.push({ field: `weekly.${key}`, message: 'is not a field of a weekly rule; allowed: days, time, timeZone' });
  }
  const { days, time, timeZone } = weekly;
  if (!Array.isArray(days) || days.length === 0) details.push({ field: 'weekly.days', message: 'must be a non-empty list of days of the week' });
  else {
    days.forEach((day, i) => {
      if (!(DAYS as readonly unknown[]).includes(day)) details.push({ field: `weekly.days[${i}]`, message: `must be one of ${DAYS.map((d) => `"${d}"`).join(', ')}` });
      else if (days.indexOf(day) !== i) details.push({ field: `weekly.days[${i}]`, message: `repeats weekly.days[${days.indexOf(day)}]` });
    });
  }
  if (typeof time !== 'string' || !TIME.test(time)) details.push({ field: 'weekly.time', message: 'must be a local time HH:MM, 00:00 to 23:59' });
  const zone = typeof timeZone === 'string' ? canonicalZone(timeZone) : undefined;
  if (!zone) details.push({ field: 'weekly.timeZone', message: `${JSON.stringify(timeZone ?? null)} is not an IANA time zone name such as Europe/Paris (a UTC offset has no daylight-saving rules)` });
  if (details.length > before) return undefined;
  return { weekly: { days: days as Day[], time: time as string, timeZone: zone! } };
}

function parseBounds(body: Record<string, unknown>, now: Date, details: FieldIssue[]): Omit<Schedule, 'rule'> | undefined {
  const before = details.length;
  const startAt = body.startAt === undefined ? now : dateTime(body.startAt, 'startAt', details);
  if (startAt && startAt.getTime() < now.getTime() - PAST_TOLERANCE_MS) details.push({ field: 'startAt', message: 'must not be in the past' });
  const until = body.until === undefined ? null : dateTime(body.until, 'until', details);
  if (until && startAt && until < startAt) details.push({ field: 'until', message: 'must not be before "startAt"' });
  const count = body.count;
  if (count !== undefined && !(typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= MAX_COUNT)) {
    details.push({ field: 'count', message: `must be a whole number from 1 to ${MAX_COUNT}` });
  }
  if (details.length > before || !startAt) return undefined;
  return { startAt, count: (count as number | undefined) ?? null, until: until ?? null };
}

function dateTime(value: unknown, field: string, details: FieldIssue[]): Date | undefined {
  const at = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (!at) details.push({ field, message: DATE_TIME_MESSAGE });
  return at;
}

/** Each variation judged as its post: the body with its content fields replaced by the variation's. */
export function parseVariations(
  value: unknown, post: Record<string, unknown>, now: Date, fetch: FetchPolicy, details: FieldIssue[],
): { variation: Variation; request: CreateRequest }[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_VARIATIONS) {
    details.push({ field: 'variations', message: `must be a list of at most ${MAX_VARIATIONS} contents, each {"content": ...} or {"containers": [...]}` });
    return undefined;
  }
  const before = details.length;
  const parsed = value.flatMap((variation: unknown, i) => {
    const field = `variations[${i}]`;
    if (!isPlainObject(variation) || Object.keys(variation).some((key) => key !== 'content' && key !== 'containers')) {
      details.push({ field, message: 'must be {"content": "..."} or {"containers": [...]}, nothing else' });
      return [];
    }
    const result = parseCreateBody({ ...withoutContent(post), ...variation }, now, fetch);
    if (!result.ok) {
      details.push(...result.details.map((issue) => ({ field: `${field}.${issue.field}`, message: issue.message })));
      return [];
    }
    return [{ variation: variation as Variation, request: result.request }];
  });
  return details.length > before ? undefined : parsed;
}

export function withoutContent(post: Record<string, unknown>): Record<string, unknown> {
  const { content: _content, containers: _containers, ...rest } = post;
  return rest;
}

/** What PATCH may change besides `status`: the content of the occurrences to come. */
export const CONTENT_FIELDS = ['content', 'containers', 'variations'] as const;

export interface ContentChange {
  post: Record<string, unknown>;
  variations: Variation[];
  /** The parsed post of each content (the new body's own first), for their accounts to be judged. */
  requests: CreateRequest[];
}

/**
 * A PATCH's new content: `content` or `containers` replace the body's, a network's block (`x`, …)
 * replaces that block, `variations` replace the list (kept when not sent, and judged again against
 * the new body). Each content is judged as the post it will become, as on create; undefined when
 * nothing of the content was sent.
 */
export function parseContentChange(
  body: Record<string, unknown>, stored: { post: Record<string, unknown>; variations: Variation[] }, blocks: readonly string[],
  now: Date, fetch: FetchPolicy, details: FieldIssue[],
): ContentChange | undefined {
  const blockChanges = Object.fromEntries(Object.entries(body).filter(([key]) => blocks.includes(key)));
  const contentGiven = body.content !== undefined || body.containers !== undefined;
  if (!contentGiven && body.variations === undefined && Object.keys(blockChanges).length === 0) return undefined;
  const base = contentGiven ? withoutContent(stored.post) : stored.post;
  const content = Object.fromEntries(Object.entries(body).filter(([key]) => key === 'content' || key === 'containers'));
  const post = { ...base, ...content, ...blockChanges };
  const before = details.length;
  const parsed = parseCreateBody(post, now, fetch);
  if (!parsed.ok) details.push(...parsed.details);
  const variations = parseVariations(body.variations ?? stored.variations, post, now, fetch, details);
  if (details.length > before || !parsed.ok || !variations) return undefined;
  return { post, variations: variations.map((v) => v.variation), requests: [parsed.request, ...variations.map((v) => v.request)] };
}
