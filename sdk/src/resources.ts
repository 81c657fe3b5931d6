// The typed methods of each resource, over CrierHttp. Names follow the operationIds of /openapi.json
// (createPost → posts.create); bodies and answers are the generated types of those operations.
import { keyFor, type CrierHttp, type Query, type RequestBody, type ResponseBody } from './http.ts';
import type { operations } from './openapi.ts';

const at = (...parts: string[]) => parts.map((p) => encodeURIComponent(p)).join('/');
type Item<Op extends 'listPosts' | 'listSocialAccounts' | 'listMedia' | 'listWebhooks'> = ResponseBody<Op>['data'][number];

/** `POST /v1/posts` answers a created post, or with `?dry_run=true` the verdicts: the two halves of its type. */
type CreateAnswer = ResponseBody<'createPost'>;
/** The answer of a dry run (`POST /v1/posts?dry_run=true`): the verdict per destination, nothing stored. */
export type PostValidation = Extract<CreateAnswer, { dryRun: true }>;
/** A created post's answer: the spec's `post` (and `data.post`, where hosted clients read it). */
export type PostCreated = Exclude<CreateAnswer, { dryRun: true }>;

export type CreatePostInput = RequestBody<'createPost'>;
export type Post = Item<'listPosts'>;

export function postsApi(http: CrierHttp) {
  return {
    /** Creates a post. The Idempotency-Key (given, or generated here) is the same on every retry, so a retried create never posts twice. */
    create: (body: CreatePostInput, options: { idempotencyKey?: string } = {}) =>
      http.request<PostCreated>('POST', '/v1/posts', { body, idempotencyKey: keyFor(options.idempotencyKey) }),
    /** Every check of a create, per destination, without storing anything. */
    validate: (body: CreatePostInput) => http.request<PostValidation>('POST', '/v1/posts', { body, query: { dry_run: true } }),
    list: (query: Query<'listPosts'> = {}) => http.request<ResponseBody<'listPosts'>>('GET', '/v1/posts', { query }),
    pages: (query: Omit<Query<'listPosts'>, 'limit'> = {}, pageSize?: number) => http.pages<Post>('/v1/posts', query, pageSize),
    all: (query: Omit<Query<'listPosts'>, 'limit'> = {}, pageSize?: number) => http.each<Post>('/v1/posts', query, pageSize),
    get: (id: string) => http.request<ResponseBody<'getPost'>>('GET', `/v1/posts/${at(id)}`),
    update: (id: string, body: RequestBody<'updatePost'>) => http.request<ResponseBody<'updatePost'>>('PATCH', `/v1/posts/${at(id)}`, { body }),
    delete: (id: string) => http.request<ResponseBody<'deletePost'>>('DELETE', `/v1/posts/${at(id)}`),
    /** Changes a published post's text on the networks whose API can edit one; judged first, per account what happened. */
    editOnNetworks: (id: string, body: RequestBody<'editPostOnNetworks'>) =>
      http.request<ResponseBody<'editPostOnNetworks'>>('PATCH', `/v1/posts/${at(id)}/remote`, { body }),
    /** Deletes a published post from the networks whose API can delete one; per account what happened. */
    deleteFromNetworks: (id: string) => http.request<ResponseBody<'deletePostFromNetworks'>>('DELETE', `/v1/posts/${at(id)}/remote`),
    /** Approves a post waiting for approval (approver or admin key): queued at its time, or at once. */
    approve: (id: string) => http.request<ResponseBody<'approvePost'>>('POST', `/v1/posts/${at(id)}/approve`),
    /** Rejects a post waiting for approval (approver or admin key): final, nothing publishes. */
    reject: (id: string, reason?: string) =>
      http.request<ResponseBody<'rejectPost'>>('POST', `/v1/posts/${at(id)}/reject`, { body: reason === undefined ? {} : { reason } }),
  };
}

/** A posting queue: an account's weekly slots in a time zone, filled by `scheduledAt: "next-free-slot"`. */
export type Queue = ResponseBody<'getQueue'>['data'];

export function queuesApi(http: CrierHttp) {
  return {
    create: (body: RequestBody<'createQueue'>) => http.request<ResponseBody<'createQueue'>>('POST', '/v1/queues', { body }),
    list: (query: Query<'listQueues'> = {}) => http.request<ResponseBody<'listQueues'>>('GET', '/v1/queues', { query }),
    get: (id: string) => http.request<ResponseBody<'getQueue'>>('GET', `/v1/queues/${at(id)}`),
    update: (id: string, body: RequestBody<'updateQueue'>) => http.request<ResponseBody<'updateQueue'>>('PATCH', `/v1/queues/${at(id)}`, { body }),
    delete: (id: string) => http.request<ResponseBody<'deleteQueue'>>('DELETE', `/v1/queues/${at(id)}`),
    /** The queue's next slots and the posts standing in them. */
    slots: (id: string, query: Query<'listQueueSlots'> = {}) => http.request<ResponseBody<'listQueueSlots'>>('GET', `/v1/queues/${at(id)}/slots`, { query }),
  };
}

/** A recurring post: a post body and a rule; each occurrence becomes its own post. */
export type Recurrence = ResponseBody<'getRecurrence'>['data'];

export function recurrencesApi(http: CrierHttp) {
  return {
    create: (body: RequestBody<'createRecurrence'>) => http.request<ResponseBody<'createRecurrence'>>('POST', '/v1/recurrences', { body }),
    list: (query: Query<'listRecurrences'> = {}) => http.request<ResponseBody<'listRecurrences'>>('GET', '/v1/recurrences', { query }),
    get: (id: string) => http.request<ResponseBody<'getRecurrence'>>('GET', `/v1/recurrences/${at(id)}`),
    /** Pauses (`{ status: 'paused' }`) or resumes (`{ status: 'active' }`) the series. */
    update: (id: string, body: RequestBody<'updateRecurrence'>) => http.request<ResponseBody<'updateRecurrence'>>('PATCH', `/v1/recurrences/${at(id)}`, { body }),
    /** Stops the series and cancels its occurrences that have not started publishing. */
    delete: (id: string) => http.request<ResponseBody<'deleteRecurrence'>>('DELETE', `/v1/recurrences/${at(id)}`),
  };
}

/** A bulk import's file: CSV (a header row; README "Bulk import") or JSON lines, each a create body. */
export interface BulkFile {
  text: string;
  format: 'csv' | 'ndjson';
}

type Accepted<Op extends keyof operations> = operations[Op]['responses'] extends { 202: { content: { 'application/json': infer B } } } ? B : never;
/** A bulk import job as queued (202), and as GET reads it with its rows. */
export type BulkImportJob = Accepted<'createBulkImport'>;

const BULK_CONTENT_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;

export function bulkImportsApi(http: CrierHttp) {
  const file = ({ text, format }: BulkFile) => ({ body: text, contentType: BULK_CONTENT_TYPES[format] });
  return {
    /** A verdict per row, the judgement of a create's dry run; nothing is stored. */
    check: (input: BulkFile) => http.request<ResponseBody<'createBulkImport'>>('POST', '/v1/posts/bulk', { text: file(input), query: { dry_run: true } }),
    /** Queues the job (one per Idempotency-Key, given or generated here, so a retried start makes one job). */
    start: (input: BulkFile, options: { idempotencyKey?: string } = {}) =>
      http.request<BulkImportJob>('POST', '/v1/posts/bulk', { text: file(input), idempotencyKey: keyFor(options.idempotencyKey) }),
    list: (query: Query<'listBulkImports'> = {}) => http.request<ResponseBody<'listBulkImports'>>('GET', '/v1/posts/bulk', { query }),
    /** The job with each row's outcome so far. */
    get: (id: string) => http.request<ResponseBody<'getBulkImport'>>('GET', `/v1/posts/bulk/${at(id)}`),
    /** Stops it between chunks of rows: rows not yet done are cancelled; posts already created stay. */
    cancel: (id: string) => http.request<ResponseBody<'cancelBulkImport'>>('POST', `/v1/posts/bulk/${at(id)}/cancel`),
  };
}

/** An evergreen collection: posts (items) re-shared on a queue or a rule, never one within `minGapDays`. */
export type EvergreenCollection = ResponseBody<'getEvergreenCollection'>['data'];

export function evergreenApi(http: CrierHttp) {
  return {
    create: (body: RequestBody<'createEvergreenCollection'>) => http.request<ResponseBody<'createEvergreenCollection'>>('POST', '/v1/evergreen-collections', { body }),
    list: (query: Query<'listEvergreenCollections'> = {}) => http.request<ResponseBody<'listEvergreenCollections'>>('GET', '/v1/evergreen-collections', { query }),
    get: (id: string) => http.request<ResponseBody<'getEvergreenCollection'>>('GET', `/v1/evergreen-collections/${at(id)}`),
    /** Renames, changes `minGapDays`, pauses (`{ status: 'paused' }`) or resumes. */
    update: (id: string, body: RequestBody<'updateEvergreenCollection'>) => http.request<ResponseBody<'updateEvergreenCollection'>>('PATCH', `/v1/evergreen-collections/${at(id)}`, { body }),
    /** Stops it and cancels its posts that have not started publishing. */
    delete: (id: string) => http.request<ResponseBody<'deleteEvergreenCollection'>>('DELETE', `/v1/evergreen-collections/${at(id)}`),
    addItem: (id: string, body: RequestBody<'createEvergreenCollectionItem'>) => http.request<ResponseBody<'createEvergreenCollectionItem'>>('POST', `/v1/evergreen-collections/${at(id)}/items`, { body }),
    items: (id: string) => http.request<ResponseBody<'listEvergreenCollectionItems'>>('GET', `/v1/evergreen-collections/${at(id)}/items`),
    /** A post already made from the item stays. */
    removeItem: (id: string, itemId: string) => http.request<ResponseBody<'deleteEvergreenCollectionItem'>>('DELETE', `/v1/evergreen-collections/${at(id)}/items/${at(itemId)}`),
  };
}

/** The organization's settings (`requireApproval`) and each tenant's; changing them needs an admin key. */
export function settingsApi(http: CrierHttp) {
  return {
    get: () => http.request<ResponseBody<'getSettings'>>('GET', '/v1/settings'),
    update: (body: RequestBody<'updateSettings'>) => http.request<ResponseBody<'updateSettings'>>('PATCH', '/v1/settings', { body }),
    /** The tenants whose settings were set. */
    tenants: () => http.request<ResponseBody<'listTenantSettings'>>('GET', '/v1/tenant-settings'),
    tenant: (tenantId: string) => http.request<ResponseBody<'getTenantSetting'>>('GET', `/v1/tenant-settings/${at(tenantId)}`),
    /** A tenant that requires approval holds every post to one of its accounts. */
    updateTenant: (tenantId: string, body: RequestBody<'updateTenantSetting'>) => http.request<ResponseBody<'updateTenantSetting'>>('PATCH', `/v1/tenant-settings/${at(tenantId)}`, { body }),
  };
}

export type SocialAccount = Item<'listSocialAccounts'>;

export function accountsApi(http: CrierHttp) {
  return {
    list: (query: Query<'listSocialAccounts'> = {}) => http.request<ResponseBody<'listSocialAccounts'>>('GET', '/v1/social-accounts', { query }),
    pages: (query: Omit<Query<'listSocialAccounts'>, 'limit'> = {}, pageSize?: number) => http.pages<SocialAccount>('/v1/social-accounts', query, pageSize),
    all: (query: Omit<Query<'listSocialAccounts'>, 'limit'> = {}, pageSize?: number) => http.each<SocialAccount>('/v1/social-accounts', query, pageSize),
    get: (id: string) => http.request<ResponseBody<'getSocialAccount'>>('GET', `/v1/social-accounts/${at(id)}`),
    delete: (id: string) => http.request<ResponseBody<'deleteSocialAccount'>>('DELETE', `/v1/social-accounts/${at(id)}`),
    connectBluesky: (body: RequestBody<'createSocialAccountBluesky'>) =>
      http.request<ResponseBody<'createSocialAccountBluesky'>>('POST', '/v1/social-accounts/bluesky', { body }),
    /** A channel or group its bot administers: `{ botToken, chatId }`. */
    connectTelegram: (body: RequestBody<'createSocialAccountTelegram'>) =>
      http.request<ResponseBody<'createSocialAccountTelegram'>>('POST', '/v1/social-accounts/telegram', { body }),
    /** A channel's webhook, `{ webhookUrl }`, or a bot in a server's channel, `{ botToken, channelId }`. */
    connectDiscord: (body: RequestBody<'createSocialAccountDiscord'>) =>
      http.request<ResponseBody<'createSocialAccountDiscord'>>('POST', '/v1/social-accounts/discord', { body }),
    /**
     * Where to send the user to connect an account through the network's OAuth (the app registered with
     * POST /v1/social-networks, or on Mastodon `{ instance_url }`: Crier registers its own app there).
     */
    authUrl: (network: string, body: RequestBody<'createSocialNetworkAuthUrl'> = {}) =>
      http.request<ResponseBody<'createSocialNetworkAuthUrl'>>('POST', `/v1/social-networks/${at(network)}/auth-url`, { body }),
    /** An account of any instance by an access token: `{ instanceUrl, accessToken }` (or OAuth: `authUrl('mastodon', { instance_url })`). */
    connectMastodon: (body: RequestBody<'createSocialAccountMastodon'>) =>
      http.request<ResponseBody<'createSocialAccountMastodon'>>('POST', '/v1/social-accounts/mastodon', { body }),
  };
}

export type Media = Item<'listMedia'>;

export interface UploadInput {
  filename: string;
  bytes: Uint8Array;
  /** Default: what Crier infers from the file name. */
  contentType?: string;
}

export function mediaApi(http: CrierHttp) {
  return {
    /** The whole upload flow: a signed URL, the bytes PUT to it, then the confirm; answers the confirmed media (its `url` goes in a post). */
    async upload(input: UploadInput): Promise<ResponseBody<'confirmMedia'>['data']> {
      const started = await http.request<ResponseBody<'uploadMedia'>>('POST', '/v1/media/upload', { body: { filename: input.filename, content_type: input.contentType } });
      await http.uploadBytes(started.data.upload_url, input.bytes, input.contentType);
      const confirmed = await http.request<ResponseBody<'confirmMedia'>>('POST', `/v1/media/${started.data.id}/confirm`, { body: { size: input.bytes.byteLength } });
      return confirmed.data;
    },
    list: (query: Query<'listMedia'> = {}) => http.request<ResponseBody<'listMedia'>>('GET', '/v1/media', { query }),
    pages: (query: Omit<Query<'listMedia'>, 'limit'> = {}, pageSize?: number) => http.pages<Media>('/v1/media', query, pageSize),
    all: (query: Omit<Query<'listMedia'>, 'limit'> = {}, pageSize?: number) => http.each<Media>('/v1/media', query, pageSize),
    get: (id: string | number) => http.request<ResponseBody<'getMedia'>>('GET', `/v1/media/${at(String(id))}`),
    delete: (id: string | number) => http.request<ResponseBody<'deleteMedia'>>('DELETE', `/v1/media/${at(String(id))}`),
  };
}

export type Webhook = Item<'listWebhooks'>;

export function webhooksApi(http: CrierHttp) {
  return {
    create: (body: RequestBody<'createWebhook'>) => http.request<ResponseBody<'createWebhook'>>('POST', '/v1/webhooks', { body }),
    list: (query: Query<'listWebhooks'> = {}) => http.request<ResponseBody<'listWebhooks'>>('GET', '/v1/webhooks', { query }),
    all: (query: Omit<Query<'listWebhooks'>, 'limit'> = {}, pageSize?: number) => http.each<Webhook>('/v1/webhooks', query, pageSize),
    get: (id: string) => http.request<ResponseBody<'getWebhook'>>('GET', `/v1/webhooks/${at(id)}`),
    update: (id: string, body: RequestBody<'updateWebhook'>) => http.request<ResponseBody<'updateWebhook'>>('PATCH', `/v1/webhooks/${at(id)}`, { body }),
    delete: (id: string) => http.request<ResponseBody<'deleteWebhook'>>('DELETE', `/v1/webhooks/${at(id)}`),
    /** Sends a `webhook.test` event to the webhook now. */
    test: (id: string) => http.request<ResponseBody<'testWebhook'>>('POST', `/v1/webhooks/${at(id)}/test`),
    deliveries: (id: string, query: Query<'listWebhookDeliveries'> = {}) =>
      http.request<ResponseBody<'listWebhookDeliveries'>>('GET', `/v1/webhooks/${at(id)}/deliveries`, { query }),
    redeliver: (deliveryId: string) => http.request<ResponseBody<'redeliverWebhookDelivery'>>('POST', `/v1/webhooks/deliveries/${at(deliveryId)}/redeliver`),
  };
}

export function usageApi(http: CrierHttp) {
  return { get: () => http.request<ResponseBody<'getUsage'>>('GET', '/v1/usage') };
}

/** One event of the feed: the webhook body (`id`, `event`, `timestamp`, `data`) and its `cursor`. */
export type CrierEvent = ResponseBody<'listEvents'>['data'][number];

export interface EventsQuery {
  /** A cursor: an event's `cursor` or a page's `next`; omitted, from the oldest event kept. */
  after?: string;
  /** The event types to list; omitted, all. */
  types?: CrierEvent['event'][] | string;
  limit?: number;
}

const eventsQuery = ({ after, types, limit }: EventsQuery) => ({ after, limit, types: Array.isArray(types) ? types.join(',') : types });

export function eventsApi(http: CrierHttp) {
  const list = (query: EventsQuery = {}) => http.request<ResponseBody<'listEvents'>>('GET', '/v1/events', { query: eventsQuery(query) });
  /** Pages of the feed after `after`, following each page's `next` until the events there are now are read. */
  async function* pages(query: Omit<EventsQuery, 'limit'> = {}, pageSize?: number): AsyncGenerator<CrierEvent[]> {
    let after = query.after;
    for (;;) {
      const page = await list({ ...query, after, limit: pageSize });
      if (page.data.length > 0) yield page.data;
      after = page.next ?? after;
      if (!page.hasMore) return;
    }
  }
  /** Every event after `after`, oldest first; the last one's `cursor` is where to resume. */
  async function* all(query: Omit<EventsQuery, 'limit'> = {}, pageSize?: number): AsyncGenerator<CrierEvent> {
    for await (const page of pages(query, pageSize)) yield* page;
  }
  return { list, pages, all };
}
