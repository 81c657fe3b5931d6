// The Crier node's fields, per resource and operation, as the n8n editor shows them.
import type { INodeProperties } from 'n8n-workflow';
import { EVENT_OPTIONS } from '../../shared/events';

const show = (resource: string, operation: string[]) => ({ show: { resource: [resource], operation } });

const resource: INodeProperties = {
  displayName: 'Resource',
  name: 'resource',
  type: 'options',
  noDataExpression: true,
  options: [
    { name: 'Account', value: 'account' },
    { name: 'Analytics', value: 'analytics' },
    { name: 'Media', value: 'media' },
    { name: 'Post', value: 'post' },
    { name: 'Reply', value: 'reply' },
    { name: 'Webhook', value: 'webhook' },
  ],
  default: 'post',
};

const operations: INodeProperties[] = [
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['post'] } }, default: 'create',
    options: [
      { name: 'Create', value: 'create', action: 'Create a post', description: 'Publish now, schedule, or save a draft, to one or more accounts' },
      { name: 'Delete', value: 'delete', action: 'Delete a post', description: 'Cancel a scheduled post or delete it from Crier' },
      { name: 'Get', value: 'get', action: 'Get a post', description: 'A post with the publishing status of each account' },
      { name: 'Get Many', value: 'list', action: 'Get many posts' },
    ],
  },
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['media'] } }, default: 'upload',
    options: [{ name: 'Upload', value: 'upload', action: 'Upload a media file', description: "Upload the input item's binary file to Crier; its URL can then be used in a post" }],
  },
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['account'] } }, default: 'list',
    options: [
      { name: 'Get Many', value: 'list', action: 'Get many accounts', description: 'The connected social accounts' },
      { name: 'Get Boards', value: 'listBoards', action: 'Get the boards of an account', description: "A Pinterest account's boards, the values its posts' board_id takes" },
    ],
  },
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['webhook'] } }, default: 'list',
    options: [
      { name: 'Create', value: 'create', action: 'Create a webhook' },
      { name: 'Delete', value: 'delete', action: 'Delete a webhook' },
      { name: 'Get Many', value: 'list', action: 'Get many webhooks' },
    ],
  },
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['reply'] } }, default: 'list',
    options: [
      { name: 'Get Many', value: 'list', action: 'Get the comments of a post', description: "A post's comments, read from its network" },
      { name: 'Answer', value: 'answer', action: 'Comment on a post or answer a comment', description: 'Posted as the account that published the post' },
    ],
  },
  {
    displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['analytics'] } }, default: 'get',
    options: [{ name: 'Get', value: 'get', action: 'Get the analytics of a post', description: "A post's figures (views, likes, comments...) per account, read from its networks" }],
  },
];

const postCreate: INodeProperties[] = [
  {
    displayName: 'Account Names or IDs', name: 'accounts', type: 'multiOptions', required: true, default: [],
    typeOptions: { loadOptionsMethod: 'getAccounts' },
    description: 'The accounts to publish to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
    displayOptions: show('post', ['create']),
  },
  {
    displayName: 'Content', name: 'content', type: 'string', typeOptions: { rows: 4 }, default: '',
    description: 'The text of the post (may be empty for a media-only post)',
    displayOptions: show('post', ['create']),
  },
  {
    displayName: 'Options', name: 'postOptions', type: 'collection', placeholder: 'Add Option', default: {},
    displayOptions: show('post', ['create']),
    options: [
      {
        displayName: 'Media', name: 'media', type: 'fixedCollection', typeOptions: { multipleValues: true }, default: {},
        description: 'Files attached to the post: a URL Crier can read (e.g. the URL a Media Upload answered) and its filename',
        options: [{
          displayName: 'File', name: 'file',
          values: [
            { displayName: 'URL', name: 'url', type: 'string', default: '', required: true },
            { displayName: 'Filename', name: 'filename', type: 'string', default: '', required: true, placeholder: 'photo.jpg' },
            { displayName: 'Alt Text', name: 'altText', type: 'string', default: '' },
          ],
        }],
      },
      {
        displayName: 'Thread Replies', name: 'replies', type: 'string', typeOptions: { multipleValues: true }, default: [],
        description: 'Texts published as replies under the post, in order (a thread)',
      },
      { displayName: 'Scheduled At', name: 'scheduledAt', type: 'dateTime', default: '', description: 'When to publish; empty: now' },
      { displayName: 'Draft', name: 'isDraft', type: 'boolean', default: false, description: 'Whether to save the post without publishing it' },
      { displayName: 'Process Media', name: 'processMedia', type: 'boolean', default: false, description: 'Whether Crier re-encodes videos for each network (billed per rendition)' },
      {
        displayName: 'Pinterest Board Name or ID', name: 'pinterestBoard', type: 'options', default: '',
        typeOptions: { loadOptionsMethod: 'getPinterestBoards', loadOptionsDependsOn: ['accounts'] },
        description: 'The board of the Pinterest accounts chosen above. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
      },
      {
        displayName: 'Per-Network Options (JSON)', name: 'networkOptions', type: 'json', default: '{}',
        description: 'Crier\'s platform blocks, keyed by network, merged into the request: e.g. {"youtube": {"title": "…", "privacy": "unlisted"}, "x": {"content": "shorter text"}}',
      },
      { displayName: 'Idempotency Key', name: 'idempotencyKey', type: 'string', default: '', description: 'Sending the same key again within 24 h answers the first post instead of creating another' },
    ],
  },
];

const postId: INodeProperties = {
  displayName: 'Post ID', name: 'postId', type: 'string', required: true, default: '',
  displayOptions: { show: { resource: ['post'], operation: ['get', 'delete'] } },
};

const returnAll = (resourceName: string): INodeProperties[] => [
  { displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false, description: 'Whether to return all results or only up to a given limit', displayOptions: show(resourceName, ['list']) },
  {
    displayName: 'Limit', name: 'limit', type: 'number', default: 50, typeOptions: { minValue: 1 }, description: 'Max number of results to return',
    displayOptions: { show: { resource: [resourceName], operation: ['list'], returnAll: [false] } },
  },
];

const postList: INodeProperties[] = [
  ...returnAll('post'),
  {
    displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {},
    displayOptions: show('post', ['list']),
    options: [
      {
        displayName: 'Account Name or ID', name: 'social_account_id', type: 'options', default: '', typeOptions: { loadOptionsMethod: 'getAccounts' },
        description: 'Posts to this account. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
      },
      { displayName: 'Created After', name: 'created_after', type: 'dateTime', default: '' },
      { displayName: 'Created Before', name: 'created_before', type: 'dateTime', default: '' },
      { displayName: 'Scheduled After', name: 'scheduled_after', type: 'dateTime', default: '' },
      { displayName: 'Scheduled Before', name: 'scheduled_before', type: 'dateTime', default: '' },
      { displayName: 'Tenant ID', name: 'tenant_id', type: 'string', default: '' },
    ],
  },
];

const mediaUpload: INodeProperties[] = [
  {
    displayName: 'Input Binary Field', name: 'binaryPropertyName', type: 'string', default: 'data', required: true,
    hint: 'The name of the input binary field holding the file',
    displayOptions: show('media', ['upload']),
  },
  {
    displayName: 'Filename', name: 'filename', type: 'string', default: '',
    description: "Name to give the file in Crier; empty: the binary's own file name",
    displayOptions: show('media', ['upload']),
  },
];

const accountBoards: INodeProperties[] = [
  {
    displayName: 'Account Name or ID', name: 'accountId', type: 'options', required: true, default: '', typeOptions: { loadOptionsMethod: 'getAccounts' },
    description: 'A Pinterest account. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
    displayOptions: show('account', ['listBoards']),
  },
];

const webhookFields: INodeProperties[] = [
  ...returnAll('webhook'),
  { displayName: 'Name', name: 'name', type: 'string', required: true, default: '', displayOptions: show('webhook', ['create']) },
  { displayName: 'URL', name: 'url', type: 'string', required: true, default: '', placeholder: 'https://app.example.com/hooks/crier', description: 'The HTTPS address Crier POSTs events to', displayOptions: show('webhook', ['create']) },
  { displayName: 'Events', name: 'events', type: 'multiOptions', required: true, default: ['post.published'], options: EVENT_OPTIONS, displayOptions: show('webhook', ['create']) },
  {
    displayName: 'Generate Secret', name: 'generateSecret', type: 'boolean', default: true,
    description: 'Whether Crier generates a signing secret, returned as "secret" in this answer only. Without one, deliveries are not signed.',
    displayOptions: show('webhook', ['create']),
  },
  { displayName: 'Webhook ID', name: 'webhookId', type: 'number', required: true, default: 0, displayOptions: show('webhook', ['delete']) },
];

const replyFields: INodeProperties[] = [
  { displayName: 'Post ID', name: 'postId', type: 'string', required: true, default: '', displayOptions: { show: { resource: ['reply', 'analytics'] } } },
  {
    displayName: 'Options', name: 'replyListOptions', type: 'collection', placeholder: 'Add Option', default: {},
    displayOptions: show('reply', ['list']),
    options: [
      { displayName: 'Network', name: 'network', type: 'string', default: '', description: 'The network to read, when the post went to several' },
      { displayName: 'Username', name: 'username', type: 'string', default: '', description: 'The account, when two accounts on one network received the post' },
      { displayName: 'Include Replies', name: 'include_replies', type: 'boolean', default: false, description: 'Whether to include the answers to each comment' },
    ],
  },
  { displayName: 'Text', name: 'text', type: 'string', typeOptions: { rows: 3 }, required: true, default: '', displayOptions: show('reply', ['answer']) },
  {
    displayName: 'Options', name: 'answerOptions', type: 'collection', placeholder: 'Add Option', default: {},
    displayOptions: show('reply', ['answer']),
    options: [
      { displayName: 'Comment ID', name: 'parent_comment_id', type: 'string', default: '', description: 'Answer this comment (an ID from Get Many, or the commentId of a comment.received event) instead of the post' },
      { displayName: 'Network', name: 'network', type: 'string', default: '', description: 'The network to answer on, when the post went to several' },
      { displayName: 'Account Username', name: 'account_username', type: 'string', default: '', description: 'The account that answers, when the post went to several' },
    ],
  },
];

export const CRIER_PROPERTIES: INodeProperties[] = [
  resource,
  ...operations,
  ...postCreate,
  postId,
  ...postList,
  ...mediaUpload,
  ...accountBoards,
  ...webhookFields,
  ...replyFields,
];
