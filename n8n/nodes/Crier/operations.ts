// What each resource/operation of the Crier node does for one input item: the Crier calls, and the
// records it outputs (one n8n item per record).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { crierList, crierRequest } from '../../shared/api';

type Operation = (this: IExecuteFunctions, item: number) => Promise<IDataObject | IDataObject[]>;

interface MediaEntry {
  url: string;
  filename: string;
  altText?: string;
}

interface PostOptions {
  media?: { file?: MediaEntry[] };
  replies?: string[];
  scheduledAt?: string;
  isDraft?: boolean;
  processMedia?: boolean;
  pinterestBoard?: string;
  networkOptions?: string | IDataObject;
  idempotencyKey?: string;
}

/** The platform blocks typed in as JSON: an object keyed by network. */
function networkBlocks(context: IExecuteFunctions, item: number, value: PostOptions['networkOptions']): IDataObject {
  let blocks: unknown = value ?? {};
  if (typeof blocks === 'string') {
    try {
      blocks = JSON.parse(blocks.trim() || '{}');
    } catch (error) {
      throw new NodeOperationError(context.getNode(), `Per-Network Options is not valid JSON: ${(error as Error).message}`, { itemIndex: item });
    }
  }
  if (typeof blocks !== 'object' || blocks === null || Array.isArray(blocks)) {
    throw new NodeOperationError(context.getNode(), 'Per-Network Options must be a JSON object keyed by network, e.g. {"x": {"content": "…"}}', { itemIndex: item });
  }
  return blocks as IDataObject;
}

/** The body of POST /v1/posts from the node's fields. */
export function postBody(context: IExecuteFunctions, item: number): IDataObject {
  const accounts = context.getNodeParameter('accounts', item) as string[];
  const content = context.getNodeParameter('content', item) as string;
  const options = context.getNodeParameter('postOptions', item) as PostOptions;
  const media = (options.media?.file ?? []).map(({ url, filename, altText }) => (altText ? { url, filename, altText } : { url, filename }));
  const replies = (options.replies ?? []).map((text) => ({ content: text }));
  const body: IDataObject = { ...networkBlocks(context, item, options.networkOptions), accounts, containers: [{ content, media }, ...replies] };
  if (options.scheduledAt) body.scheduledAt = new Date(options.scheduledAt).toISOString();
  if (options.isDraft) body.isDraft = true;
  if (options.processMedia) body.processMedia = true;
  if (options.pinterestBoard) body.pinterest = { ...(body.pinterest as IDataObject | undefined), board_id: options.pinterestBoard };
  return body;
}

async function createPost(this: IExecuteFunctions, item: number): Promise<IDataObject> {
  const { idempotencyKey } = this.getNodeParameter('postOptions', item) as PostOptions;
  const headers = idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined;
  const answer = await crierRequest.call(this, 'POST', '/v1/posts', { body: postBody(this, item), headers });
  // Crier's warnings name the keys it ignored (a misspelt option): kept beside the post so they are seen.
  return answer.warnings ? { ...(answer.post as IDataObject), warnings: answer.warnings } : (answer.post as IDataObject);
}

const postPath = (context: IExecuteFunctions, item: number) => `/v1/posts/${encodeURIComponent(context.getNodeParameter('postId', item) as string)}`;

/** `max` for a list: undefined with Return All, else the Limit field. */
function listMax(context: IExecuteFunctions, item: number): number | undefined {
  return context.getNodeParameter('returnAll', item) ? undefined : (context.getNodeParameter('limit', item) as number);
}

/** The filled-in fields of a collection, without the empty ones n8n keeps. */
function filled(fields: IDataObject): IDataObject {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '' && value !== undefined && value !== null));
}

async function uploadMedia(this: IExecuteFunctions, item: number): Promise<IDataObject> {
  const field = this.getNodeParameter('binaryPropertyName', item) as string;
  const binary = this.helpers.assertBinaryData(item, field);
  const filename = (this.getNodeParameter('filename', item) as string) || binary.fileName;
  if (!filename) throw new NodeOperationError(this.getNode(), `The binary field "${field}" has no file name: set Filename`, { itemIndex: item });
  const bytes = await this.helpers.getBinaryDataBuffer(item, field);
  const started = await crierRequest.call(this, 'POST', '/v1/media/upload', { body: filled({ filename, content_type: binary.mimeType }) });
  const { id, upload_url: uploadUrl } = started.data as { id: number; upload_url: string };
  // The upload URL is signed: it takes the bytes without the API key.
  await this.helpers.httpRequest({ method: 'PUT', url: uploadUrl, body: bytes, headers: { 'content-type': binary.mimeType || 'application/octet-stream' } });
  const confirmed = await crierRequest.call(this, 'POST', `/v1/media/${id}/confirm`, { body: { size: bytes.length } });
  return confirmed.data as IDataObject;
}

const OPERATIONS: Record<string, Record<string, Operation>> = {
  post: {
    create: createPost,
    async get(item) {
      return (await crierRequest.call(this, 'GET', postPath(this, item))).post as IDataObject;
    },
    async delete(item) {
      return crierRequest.call(this, 'DELETE', postPath(this, item));
    },
    async list(item) {
      return crierList.call(this, '/v1/posts', 'posts', filled(this.getNodeParameter('filters', item) as IDataObject), listMax(this, item));
    },
  },
  media: { upload: uploadMedia },
  account: {
    async list() {
      return crierList.call(this, '/v1/social-accounts', 'data');
    },
    async listBoards(item) {
      const account = encodeURIComponent(this.getNodeParameter('accountId', item) as string);
      return (await crierRequest.call(this, 'GET', `/v1/social-accounts/${account}/boards`)).data as IDataObject[];
    },
  },
  webhook: {
    async create(item) {
      const body = {
        name: this.getNodeParameter('name', item) as string,
        url: this.getNodeParameter('url', item) as string,
        events: this.getNodeParameter('events', item) as string[],
        generateSecret: this.getNodeParameter('generateSecret', item) as boolean,
      };
      return (await crierRequest.call(this, 'POST', '/v1/webhooks', { body })).data as IDataObject;
    },
    async list(item) {
      return crierList.call(this, '/v1/webhooks', 'data', {}, listMax(this, item));
    },
    async delete(item) {
      return crierRequest.call(this, 'DELETE', `/v1/webhooks/${this.getNodeParameter('webhookId', item) as number}`);
    },
  },
  reply: {
    async list(item) {
      const qs = filled(this.getNodeParameter('replyListOptions', item) as IDataObject);
      return (await crierRequest.call(this, 'GET', `${postPath(this, item)}/replies`, { qs })).data as IDataObject[];
    },
    async answer(item) {
      const body = { ...filled(this.getNodeParameter('answerOptions', item) as IDataObject), content: this.getNodeParameter('text', item) as string };
      const { reply_id } = await crierRequest.call(this, 'POST', `${postPath(this, item)}/replies`, { body });
      return { postId: this.getNodeParameter('postId', item) as string, reply_id };
    },
  },
  analytics: {
    async get(item) {
      const { success: _success, ...analytics } = await crierRequest.call(this, 'GET', `${postPath(this, item)}/analytics`);
      return analytics;
    },
  },
};

export function operationFor(context: IExecuteFunctions, resource: string, operation: string): Operation {
  const run = OPERATIONS[resource]?.[operation];
  if (!run) throw new NodeOperationError(context.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
  return run;
}
