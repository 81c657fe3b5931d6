// @crier/sdk: the typed client of the Crier API.
export { Crier } from './client.ts';
export type { CrierOptions, Query, RequestBody, ResponseBody } from './http.ts';
export { CrierError, type CrierFieldIssue } from './errors.ts';
export type { BulkFile, BulkImportJob, CreatePostInput, EvergreenCollection, Media, Post, PostCreated, PostValidation, Queue, Recurrence, SocialAccount, UploadInput, Webhook } from './resources.ts';
export type { CrierEvent, EventsQuery } from './resources.ts';
export type { RetryOptions, FetchLike } from './transport.ts';
export { verifyWebhook, type VerifyOptions, type WebhookHeaders, type WebhookVerification } from './webhooks.ts';
export type { operations, paths } from './openapi.ts';
