// The subset of JSON Schema X's request schemas use, reporting problems with the exact wording
// of the validator behind api.x.com (networknt json-schema-validator), e.g.
// "$.media.media_ids: there must be a maximum of 4 items in the array".
import type { ParamError } from '../errors.ts';

export interface Schema {
  type: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  properties?: Record<string, Schema>;
  required?: string[];
  /** X's schemas forbid unknown keys everywhere they are set to false. */
  additionalProperties?: false;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

export function validate(schema: Schema, value: unknown, path = '$'): ParamError[] {
  const actual = jsonType(value);
  if (actual !== schema.type) return [issue(path, value, `${actual} found, ${schema.type} expected`)];
  const errors: ParamError[] = [];
  if (schema.type === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in obj)) errors.push(issue(`${path}.${key}`, undefined, 'is missing but it is required'));
    }
    for (const [key, item] of Object.entries(obj)) {
      const child = schema.properties?.[key];
      if (child) errors.push(...validate(child, item, `${path}.${key}`));
      else if (schema.additionalProperties === false) {
        errors.push(issue(`${path}.${key}`, item, 'is not defined in the schema and the schema does not allow additional properties'));
      }
    }
  } else if (schema.type === 'array') {
    const arr = value as unknown[];
    if (schema.maxItems !== undefined && arr.length > schema.maxItems) {
      errors.push(issue(path, arr, `there must be a maximum of ${schema.maxItems} items in the array`));
    }
    if (schema.minItems !== undefined && arr.length < schema.minItems) {
      errors.push(issue(path, arr, `there must be a minimum of ${schema.minItems} items in the array`));
    }
    if (schema.items) arr.forEach((item, i) => errors.push(...validate(schema.items as Schema, item, `${path}[${i}]`)));
  } else if (schema.type === 'string') {
    const str = value as string;
    if (schema.enum && !schema.enum.includes(str)) {
      errors.push(issue(path, str, `does not have a value in the enumeration [${schema.enum.join(', ')}]`));
    }
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(str)) {
      errors.push(issue(path, str, `does not match the regex pattern ${schema.pattern}`));
    }
    if (schema.maxLength !== undefined && [...str].length > schema.maxLength) {
      errors.push(issue(path, str, `may only be ${schema.maxLength} characters long`));
    }
    if (schema.minLength !== undefined && [...str].length < schema.minLength) {
      errors.push(issue(path, str, `must be at least ${schema.minLength} characters long`));
    }
  } else if (schema.type === 'integer') {
    const num = value as number;
    if (schema.minimum !== undefined && num < schema.minimum) {
      errors.push(issue(path, num, `must have a minimum value of ${schema.minimum}`));
    }
    if (schema.maximum !== undefined && num > schema.maximum) {
      errors.push(issue(path, num, `must have a maximum value of ${schema.maximum}`));
    }
  }
  return errors;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function issue(path: string, value: unknown, problem: string): ParamError {
  const name = path.replace(/^\$\.?/, '');
  const shown = value === undefined ? [] : Array.isArray(value) ? value.map(String) : [typeof value === 'object' ? JSON.stringify(value) : String(value)];
  return { parameters: { [name]: shown }, message: `${path}: ${problem}` };
}

const ID = '^[0-9]{1,19}$';
const id: Schema = { type: 'string', pattern: ID };
const flag: Schema = { type: 'boolean' };
const replySettings: Schema = { type: 'string', enum: ['following', 'mentionedUsers', 'subscribers', 'verified'] };

/** CreatePostsRequest from X's openapi.json. */
export const createPostSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    card_uri: { type: 'string' },
    community_id: id,
    direct_message_deep_link: { type: 'string' },
    edit_options: { type: 'object', additionalProperties: false, required: ['previous_post_id'], properties: { previous_post_id: id } },
    for_super_followers_only: flag,
    geo: { type: 'object', additionalProperties: false, required: ['place_id'], properties: { place_id: { type: 'string' } } },
    made_with_ai: flag,
    media: {
      type: 'object',
      additionalProperties: false,
      required: ['media_ids'],
      properties: {
        media_ids: { type: 'array', minItems: 1, maxItems: 4, items: id },
        tagged_user_ids: { type: 'array', maxItems: 10, items: id },
        preview_media_id: id,
        description: { type: 'string' },
        title: { type: 'string' },
        embeddable: flag,
        call_to_actions: { type: 'object' },
      },
    },
    nullcast: flag,
    paid_partnership: flag,
    poll: {
      type: 'object',
      additionalProperties: false,
      required: ['options', 'duration_minutes'],
      properties: {
        duration_minutes: { type: 'integer', minimum: 5, maximum: 10080 },
        options: { type: 'array', minItems: 2, maxItems: 4, items: { type: 'string', minLength: 1, maxLength: 25 } },
        reply_settings: replySettings,
      },
    },
    quote_tweet_id: id,
    reply: {
      type: 'object',
      additionalProperties: false,
      required: ['in_reply_to_tweet_id'],
      properties: {
        auto_populate_reply_metadata: flag,
        exclude_reply_user_ids: { type: 'array', items: { type: 'string' } },
        in_reply_to_tweet_id: id,
      },
    },
    reply_settings: replySettings,
    share_with_followers: flag,
    text: { type: 'string' },
  },
};

const MEDIA_CATEGORIES = ['amplify_video', 'tweet_gif', 'tweet_image', 'tweet_video', 'dm_gif', 'dm_image', 'dm_video', 'subtitles'];

/** InitializeMediaUploadRequest from X's openapi.json. */
export const initializeSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    additional_owners: { type: 'array', items: id },
    media_category: { type: 'string', enum: MEDIA_CATEGORIES },
    media_type: {
      type: 'string',
      enum: ['video/mp4', 'video/webm', 'video/mp2t', 'video/quicktime', 'text/srt', 'text/vtt', 'image/jpeg', 'image/gif',
        'image/bmp', 'image/png', 'image/webp', 'image/pjpeg', 'image/tiff', 'model/gltf-binary', 'model/vnd.usdz+zip'],
    },
    shared: flag,
    total_bytes: { type: 'integer', minimum: 0, maximum: 17179869184 },
  },
};

/** MediaUploadRequest (one-shot upload) from X's openapi.json. */
export const simpleUploadSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['media', 'media_category'],
  properties: {
    additional_owners: { type: 'string' },
    media: { type: 'string' },
    media_category: { type: 'string', enum: MEDIA_CATEGORIES.filter((c) => c !== 'amplify_video') },
  },
};

export const appendSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['media', 'segment_index'],
  properties: { media: { type: 'string' }, segment_index: { type: 'integer', minimum: 0, maximum: 999 } },
};

export const metadataSchema: Schema = {
  type: 'object',
  required: ['id'],
  properties: {
    id,
    metadata: {
      type: 'object',
      properties: { alt_text: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 1000 } } } },
    },
  },
};
