// What the My Business v4 localPosts.create checks in a LocalPost body, as Google's ValidationError
// ({errorDetails:[{code, field, message, value?}]}, codes of Shared.Types/ErrorCode). The checks are
// the reference's LocalPost shape plus what API users report the endpoint enforces (README).
import { isPlainObject } from '../../shared/http.ts';

/** Shared.Types/ErrorCode values used here. */
export const ERROR_CODES = {
  MISSING_VALUE: 1,
  INVALID_VALUE: 2,
  TOO_MANY_ITEMS: 4,
  INVERTED_RANGE: 7,
  VALUE_OUTSIDE_ALLOWED_RANGE: 8,
  UNSUPPORTED_VALUE: 11,
  PHOTO_FETCH_FAILED: 1000,
  PHOTO_UPLOAD_FAILED: 1001,
} as const;

export interface ErrorDetail {
  code: number;
  field: string;
  message: string;
  value?: string;
  fieldIndex?: number;
}

const TOPIC_TYPES = new Set(['STANDARD', 'EVENT', 'OFFER', 'ALERT']);
const ACTION_TYPES = new Set(['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL', 'GET_OFFER']);
/** The LocalPost fields a client may send; the rest are output-only or unknown. */
export const WRITABLE_FIELDS = new Set(['languageCode', 'summary', 'callToAction', 'event', 'media', 'topicType', 'alertType', 'offer']);
export const OUTPUT_ONLY_FIELDS = new Set(['name', 'createTime', 'updateTime', 'state', 'searchUrl']);
export const MAX_SUMMARY = 1500;
export const MAX_TITLE = 58;

const detail = (code: number, field: string, message: string, value?: unknown): ErrorDetail => ({
  code, field, message, ...(value === undefined ? {} : { value: typeof value === 'string' ? value : JSON.stringify(value) }),
});

/** Every problem of the body (empty: valid). Media fetching is checked separately (it needs the network). */
export function validateLocalPost(post: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const topic = post.topicType;
  if (topic === undefined) problems.push(detail(ERROR_CODES.MISSING_VALUE, 'topic_type', 'Topic type is required.'));
  else if (typeof topic !== 'string' || !TOPIC_TYPES.has(topic)) problems.push(detail(ERROR_CODES.INVALID_VALUE, 'topic_type', 'Invalid topic type.', topic));
  const summary = post.summary;
  if (summary !== undefined && typeof summary !== 'string') problems.push(detail(ERROR_CODES.INVALID_VALUE, 'summary', 'Invalid value.', summary));
  if (typeof summary === 'string' && [...summary].length > MAX_SUMMARY) problems.push(detail(ERROR_CODES.VALUE_OUTSIDE_ALLOWED_RANGE, 'summary', `Must be at most ${MAX_SUMMARY} characters`));
  const media = Array.isArray(post.media) ? post.media : [];
  if (topic === 'STANDARD' && !summary && media.length === 0) problems.push(detail(ERROR_CODES.MISSING_VALUE, 'summary', 'A post needs a summary or a photo.'));
  if (topic === 'EVENT' || topic === 'OFFER') problems.push(...eventProblems(post.event));
  if (post.offer !== undefined && topic !== 'OFFER') problems.push(detail(ERROR_CODES.UNSUPPORTED_VALUE, 'offer', 'Offer is only supported for OFFER posts.'));
  if (post.callToAction !== undefined) problems.push(...callToActionProblems(post.callToAction, topic));
  if (post.media !== undefined) problems.push(...mediaProblems(post.media));
  return problems;
}

function eventProblems(event: unknown): ErrorDetail[] {
  if (!isPlainObject(event)) return [detail(ERROR_CODES.MISSING_VALUE, 'event', 'Event is required for EVENT and OFFER posts.')];
  const problems: ErrorDetail[] = [];
  if (typeof event.title !== 'string' || !event.title) problems.push(detail(ERROR_CODES.MISSING_VALUE, 'event.title', 'Event title is required.'));
  else if ([...event.title].length > MAX_TITLE) problems.push(detail(ERROR_CODES.VALUE_OUTSIDE_ALLOWED_RANGE, 'event.title', `Must be at most ${MAX_TITLE} characters`));
  const schedule = event.schedule;
  if (!isPlainObject(schedule)) return [...problems, detail(ERROR_CODES.MISSING_VALUE, 'event.schedule', 'Schedule is required.')];
  const start = instant(schedule.startDate, schedule.startTime);
  const end = instant(schedule.endDate, schedule.endTime);
  const missing = ([['start_date', schedule.startDate], ['start_time', schedule.startTime], ['end_date', schedule.endDate], ['end_time', schedule.endTime]] as const)
    .filter(([, value]) => value === undefined)
    .map(([field]) => detail(ERROR_CODES.MISSING_VALUE, `event.schedule.${field}`, 'Required.'));
  if (missing.length) return [...problems, ...missing];
  if (start === undefined) problems.push(detail(ERROR_CODES.INVALID_VALUE, 'event.schedule.start_date', 'Invalid date or time.'));
  if (end === undefined) problems.push(detail(ERROR_CODES.INVALID_VALUE, 'event.schedule.end_date', 'Invalid date or time.'));
  if (start !== undefined && end !== undefined && end <= start) problems.push(detail(ERROR_CODES.INVERTED_RANGE, 'event.schedule', 'The end must come after the start.'));
  return problems;
}

/** A calendar date and time of day as a UTC timestamp, or undefined when either is not a real one. */
function instant(date: unknown, time: unknown): number | undefined {
  if (!isPlainObject(date) || !isPlainObject(time)) return undefined;
  const [year, month, day] = [date.year, date.month, date.day].map(Number);
  const [hours, minutes] = [Number(time.hours ?? 0), Number(time.minutes ?? 0)];
  if (![year, month, day, hours, minutes].every(Number.isInteger)) return undefined;
  if (hours < 0 || hours > 24 || minutes < 0 || minutes > 59) return undefined;
  const at = Date.UTC(year!, month! - 1, day!, hours, minutes);
  const check = new Date(Date.UTC(year!, month! - 1, day!));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month! - 1 && check.getUTCDate() === day ? at : undefined;
}

function callToActionProblems(cta: unknown, topic: unknown): ErrorDetail[] {
  if (!isPlainObject(cta)) return [detail(ERROR_CODES.INVALID_VALUE, 'call_to_action', 'Invalid value.')];
  if (topic === 'OFFER') return [detail(ERROR_CODES.UNSUPPORTED_VALUE, 'call_to_action', 'Call to action is not supported for OFFER posts.')];
  const type = cta.actionType;
  if (typeof type !== 'string' || !ACTION_TYPES.has(type)) return [detail(ERROR_CODES.INVALID_VALUE, 'call_to_action.action_type', 'Invalid action type.', type)];
  if (type === 'GET_OFFER') return [detail(ERROR_CODES.UNSUPPORTED_VALUE, 'call_to_action.action_type', 'GET_OFFER is deprecated; use an OFFER post.', type)];
  if (type === 'CALL') return cta.url === undefined ? [] : [detail(ERROR_CODES.INVALID_VALUE, 'call_to_action.url', 'A CALL action takes no url.', cta.url)];
  if (typeof cta.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(cta.url)) return [detail(ERROR_CODES.MISSING_VALUE, 'call_to_action.url', 'A url is required for this action type.', cta.url)];
  return [];
}

function mediaProblems(media: unknown): ErrorDetail[] {
  if (!Array.isArray(media)) return [detail(ERROR_CODES.INVALID_VALUE, 'media', 'Invalid value.')];
  if (media.length > 1) return [detail(ERROR_CODES.TOO_MANY_ITEMS, 'media', 'A post takes one photo.')];
  return media.flatMap((item, fieldIndex): ErrorDetail[] => {
    if (!isPlainObject(item)) return [{ ...detail(ERROR_CODES.INVALID_VALUE, 'media', 'Invalid value.'), fieldIndex }];
    if (item.mediaFormat !== 'PHOTO' && item.mediaFormat !== 'VIDEO') return [{ ...detail(ERROR_CODES.INVALID_VALUE, 'media.media_format', 'Invalid media format.', item.mediaFormat), fieldIndex }];
    if (typeof item.sourceUrl !== 'string' || !item.sourceUrl) return [{ ...detail(ERROR_CODES.MISSING_VALUE, 'media.source_url', 'sourceUrl is the only supported data field for a LocalPost MediaItem.'), fieldIndex }];
    return [];
  });
}
