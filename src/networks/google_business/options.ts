// Google Business Profile block. EVENT and OFFER posts carry their title and validity window in `event`
// (rule 8), and a call to action needs a link unless it is a phone call.
import { Type, type Static } from 'typebox';
import { ContentOverride, issue, noRules } from '../rules.ts';
import { HttpUrl, StringEnum } from '../../validation/schema.ts';
import type { FieldIssue, NetworkOptions } from '../types.ts';

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
    return issues;
  },
  targetRules: noRules,
};
