// Google Business Profile block. EVENT and OFFER posts carry their title and validity window in `event`
// (rule 8), and a call to action needs a link unless it is a phone call. What the localPosts API
// refuses is refused here too, with the field to fix: an event title over 58 characters, a date or
// time that does not exist, an end before the start, a text over 1,500 characters, and media other
// than one JPG or PNG photo (figures: youtube-tiktok-gbp-pinterest-vimeo-reddit.md §3.5).
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, rootMedia, rootText } from '../rules.ts';
import { HttpUrl, StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';
import type { PostContent } from '../../core/post.ts';

const CalendarDate = () => Type.Object({ year: Type.Number(), month: Type.Number(), day: Type.Number() });
const TimeOfDay = () => Type.Object({ hours: Type.Number(), minutes: Type.Number() });

const schema = Type.Object({
  content: ContentOverride(),
  topicType: Type.Optional(StringEnum(['STANDARD', 'EVENT', 'OFFER'])),
  callToAction: Type.Optional(Type.Object({
    actionType: StringEnum(['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL']),
    url: Type.Optional(HttpUrl()),
  })),
  event: Type.Optional(Type.Object({
    title: Type.String(),
    startDate: CalendarDate(),
    startTime: TimeOfDay(),
    endDate: CalendarDate(),
    endTime: TimeOfDay(),
  })),
  offer: Type.Optional(Type.Object({
    couponCode: Type.Optional(Type.String()),
    redeemOnlineUrl: Type.Optional(HttpUrl()),
    termsConditions: Type.Optional(Type.String()),
  })),
});

export type GoogleBusinessBlock = Static<typeof schema>;

/** `summary` is capped at 1,500 characters, an event's or offer's title at 58 (both enforced by the API). */
export const MAX_SUMMARY = 1500;
export const MAX_TITLE = 58;

/** A post's one photo is a JPG or a PNG (Business Profile help); the extension says which. */
export const isPhoto = (filename: string): boolean => /\.(jpe?g|png)$/i.test(filename);

export const options: NetworkOptions = {
  network: 'google_business',
  schema,
  blockRules(raw) {
    const block = raw as GoogleBusinessBlock;
    const issues: FieldIssue[] = [];
    if ((block.topicType === 'EVENT' || block.topicType === 'OFFER') && block.event === undefined) {
      issues.push(issue('google_business.event', `is required when topicType is ${block.topicType}; give title, `
        + 'startDate {year, month, day}, startTime {hours, minutes}, endDate and endTime'));
    }
    // The spec ignores callToAction on OFFER posts, so its url is not demanded there.
    const cta = block.callToAction;
    if (cta && cta.actionType !== 'CALL' && cta.url === undefined && block.topicType !== 'OFFER') {
      issues.push(issue('google_business.callToAction.url', `is required for actionType ${cta.actionType} `
        + '(only CALL goes without one); add the link the button opens'));
    }
    if (block.event) issues.push(...eventIssues(block.event));
    return issues;
  },
  targetRules(raw, ctx) {
    const block = (raw ?? {}) as GoogleBusinessBlock;
    const text = rootText('google_business', ctx);
    const textField = block.content !== undefined ? 'google_business.content' : 'containers[0].content';
    const issues: FieldIssue[] = [];
    if ([...text].length > MAX_SUMMARY) issues.push(issue(textField, `is ${[...text].length} characters; a Google Business Profile post takes at most ${MAX_SUMMARY}`));
    issues.push(...photoIssues(ctx));
    if ((block.topicType ?? 'STANDARD') === 'STANDARD' && !text && rootMedia(ctx).length === 0) {
      issues.push(issue('containers[0].content', 'is empty and the first container has no photo; a Google Business Profile update needs text or a photo'));
    }
    return issues;
  },
};

type Event = NonNullable<GoogleBusinessBlock['event']>;

function eventIssues(event: Event): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if ([...event.title].length > MAX_TITLE) issues.push(issue('google_business.event.title', `is ${[...event.title].length} characters; Google takes at most ${MAX_TITLE}`));
  const start = instant(event, 'start', issues);
  const end = instant(event, 'end', issues);
  if (start !== undefined && end !== undefined && end <= start) issues.push(issue('google_business.event.endDate', 'with endTime is not after startDate with startTime; the event must end after it starts'));
  return issues;
}

/** The date and time as one UTC timestamp, or undefined (with the issue) when either does not exist. */
function instant(event: Event, which: 'start' | 'end', issues: FieldIssue[]): number | undefined {
  const date = event[`${which}Date`];
  const time = event[`${which}Time`];
  const field = `google_business.event.${which}`;
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  const realDate = [date.year, date.month, date.day].every(Number.isInteger)
    && check.getUTCFullYear() === date.year && check.getUTCMonth() === date.month - 1 && check.getUTCDate() === date.day;
  const realTime = Number.isInteger(time.hours) && Number.isInteger(time.minutes) && time.hours >= 0 && time.hours <= 23 && time.minutes >= 0 && time.minutes <= 59;
  if (!realDate) issues.push(issue(`${field}Date`, `${date.year}-${date.month}-${date.day} is not a calendar date (year, month 1-12, day of that month)`));
  if (!realTime) issues.push(issue(`${field}Time`, `${time.hours}:${time.minutes} is not a time of day (hours 0-23, minutes 0-59)`));
  return realDate && realTime ? Date.UTC(date.year, date.month - 1, date.day, time.hours, time.minutes) : undefined;
}

/** One JPG or PNG photo at most, in the first container (later containers are not published). */
function photoIssues(ctx: PostContent): FieldIssue[] {
  const media = rootMedia(ctx);
  if (media.length > 1) return [issue('containers[0].media', `has ${media.length} items; a Google Business Profile post takes one photo`)];
  const photo = media[0];
  if (photo && !isPhoto(photo.filename)) {
    return [issue('containers[0].media[0].filename', `"${photo.filename}" is not a JPG or PNG photo, the only media a Google Business Profile post takes`)];
  }
  return [];
}
