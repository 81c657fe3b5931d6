// The request and response shapes of /v1/queues (validation/json-schema.ts): they validate requests,
// and the OpenAPI document (and so the MCP tools) is generated from them.
import { Type, type Static } from '../validation/json-schema.ts';
import { PaginationQuery } from '../validation/pagination.ts';
import { DAYS, type Day } from './slots.ts';

/** At most 100 slots a week (14 a day): a queue is a publishing rhythm, not a calendar of minutes. */
export const MAX_SLOTS = 100;

const SlotSchema = Type.Object({
  day: Type.Unsafe<Day>({ type: 'string', enum: [...DAYS] }),
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a local time HH:MM, 00:00 to 23:59' }),
});

const ZoneSchema = Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone name, such as Europe/Paris or America/New_York; the slots are local times there, daylight saving included' });

const SlotsSchema = Type.Array(SlotSchema, {
  minItems: 1,
  maxItems: MAX_SLOTS,
  description: `each distinct, at most ${MAX_SLOTS}. A slot at a local time that a spring daylight-saving change skips is skipped that day; one that happens twice in autumn is the first of the two`,
});

export const CreateQueueBodySchema = Type.Object({
  socialAccountId: Type.String({ minLength: 1, maxLength: 64, description: 'the account whose posts this queue schedules; an account has one queue at most' }),
  timeZone: ZoneSchema,
  slots: SlotsSchema,
}, { additionalProperties: false });

export const UpdateQueueBodySchema = Type.Object({
  timeZone: Type.Optional(ZoneSchema),
  slots: Type.Optional(SlotsSchema),
}, { additionalProperties: false, description: 'At least one of the two; the slots sent replace every slot.' });

export type CreateQueueBody = Static<typeof CreateQueueBodySchema>;
export type UpdateQueueBody = Static<typeof UpdateQueueBodySchema>;

export const QueueSchema = Type.Object({
  id: Type.String(),
  socialAccountId: Type.String(),
  timeZone: Type.String(),
  slots: Type.Array(SlotSchema, { description: 'in week order, Monday first' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const ListQueuesQuerySchema = Type.Object({
  social_account_id: Type.Optional(Type.String({ minLength: 1, description: 'only the queue of this account' })),
  ...PaginationQuery,
});

export type ListQueuesQuery = Static<typeof ListQueuesQuerySchema>;

export const ListQueuesResponseSchema = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(QueueSchema),
  count: Type.Integer({ description: 'queues matching the filter, across pages' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const MAX_PREVIEW = 100;

export const SlotsQuerySchema = Type.Object({
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PREVIEW, default: 10, description: 'how many upcoming slots' })),
});

export const SlotPreviewSchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  day: Type.String({ enum: [...DAYS] }),
  time: Type.String({ description: 'the local time in the queue\'s zone' }),
  postIds: Type.Array(Type.String(), { description: 'the posts of this account that stand at this time (not cancelled, not published); empty: the slot is free' }),
  withinSchedulingWindow: Type.Boolean({ description: 'false: more than 30 days ahead, where "next-free-slot" does not schedule yet' }),
});

export const SlotsResponseSchema = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(SlotPreviewSchema),
});
