import type { INodePropertyOptions } from 'n8n-workflow';

/** The event types a Crier webhook can subscribe to (POST /v1/webhooks `events`), as offered in the editor. */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
  { name: 'Post Published', value: 'post.published', description: 'A post was published to at least one of its accounts' },
  { name: 'Post Error', value: 'post.error', description: 'A post failed on all of its accounts' },
  { name: 'Post Approval Requested', value: 'post.approval_requested', description: 'The organization requires approval and a post waits for an approver' },
  { name: 'Post Approved', value: 'post.approved', description: 'An approver approved a post: it is queued at its time' },
  { name: 'Post Rejected', value: 'post.rejected', description: 'An approver rejected a post: none of its accounts will publish it' },
  { name: 'Account Token Expired', value: 'account.token_expired', description: "An account's token could not be refreshed: connect it again" },
  { name: 'Import Completed', value: 'import.completed' },
  { name: 'Import Failed', value: 'import.failed' },
  { name: 'Bulk Import Completed', value: 'bulk_import.completed', description: 'A bulk import (POST /v1/posts/bulk) went through every row' },
  { name: 'Conversation Started', value: 'conversation.started' },
  { name: 'Message Received', value: 'message.received' },
  { name: 'Message Sent', value: 'message.sent' },
  { name: 'Message Failed', value: 'message.failed' },
  { name: 'Comment Received', value: 'comment.received', description: 'Someone commented on a post of a connected account, or answered a comment' },
];
