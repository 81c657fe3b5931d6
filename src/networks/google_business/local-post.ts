// What a Crier post becomes on Google Business Profile: one LocalPost (My Business v4) made of the
// root container — its text (or google_business.content) as `summary`, its one photo by URL — and the
// block: the topic type, an EVENT's or OFFER's title and schedule, an OFFER's coupon, redeem link and
// terms, and a call to action (its url left out for CALL; none on an OFFER, which Google gives its own
// "View offer" button and refuses one on).
import type { ContainerInput } from '../../core/post.ts';
import type { GoogleBusinessBlock } from './options.ts';

export type LocalPostBody = Record<string, unknown> & { summary?: string; topicType: string };

export function localPostBody(block: GoogleBusinessBlock, containers: ContainerInput[]): LocalPostBody {
  const topicType = block.topicType ?? 'STANDARD';
  const summary = block.content ?? containers[0]?.content ?? '';
  const photo = containers[0]?.media[0];
  return {
    topicType,
    ...(summary ? { summary } : {}),
    ...(photo ? { media: [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }] } : {}),
    ...(topicType !== 'STANDARD' && block.event ? { event: eventOf(block.event) } : {}),
    ...(topicType === 'OFFER' && block.offer ? { offer: offerOf(block.offer) } : {}),
    ...(topicType !== 'OFFER' && block.callToAction ? { callToAction: callToActionOf(block.callToAction) } : {}),
  };
}

type Event = NonNullable<GoogleBusinessBlock['event']>;

/** The block keeps the five fields flat (spec); Google wants the four times in `schedule`. */
function eventOf(event: Event): Record<string, unknown> {
  return {
    title: event.title,
    schedule: {
      startDate: dateOf(event.startDate),
      startTime: timeOf(event.startTime),
      endDate: dateOf(event.endDate),
      endTime: timeOf(event.endTime),
    },
  };
}

const dateOf = (d: Event['startDate']) => ({ year: d.year, month: d.month, day: d.day });
const timeOf = (t: Event['startTime']) => ({ hours: t.hours, minutes: t.minutes });

function offerOf(offer: NonNullable<GoogleBusinessBlock['offer']>): Record<string, string> {
  const out: Record<string, string> = {};
  if (offer.couponCode !== undefined) out.couponCode = offer.couponCode;
  if (offer.redeemOnlineUrl !== undefined) out.redeemOnlineUrl = offer.redeemOnlineUrl;
  if (offer.termsConditions !== undefined) out.termsConditions = offer.termsConditions;
  return out;
}

/** CALL dials the profile's phone number: Google refuses a url with it, so a supplied one is dropped (spec). */
function callToActionOf(cta: NonNullable<GoogleBusinessBlock['callToAction']>): Record<string, string> {
  if (cta.actionType === 'CALL') return { actionType: 'CALL' };
  return { actionType: cta.actionType, url: cta.url! };
}
