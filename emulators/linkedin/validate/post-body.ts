// Rest.li's schema check of a POST /rest/posts body: every problem becomes one
// "ERROR :: /field :: …" line of a 422, in the wording of Rest.li's data validator.
import { isPlainObject } from '../../shared/http.ts';
import type { PostContent } from '../publishing.ts';

export interface PostBody {
  author: string;
  commentary: string;
  visibility: string;
  distribution: Record<string, unknown>;
  lifecycleState: string;
  isReshareDisabledByAuthor: boolean;
  content?: PostContent;
}

const VISIBILITY = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'];
const LIFECYCLE = ['DRAFT', 'PUBLISHED', 'PUBLISH_REQUESTED', 'PUBLISH_FAILED'];
const FEED = ['MAIN_FEED', 'NONE'];
const TOP_FIELDS = new Set(['author', 'commentary', 'visibility', 'distribution', 'lifecycleState', 'isReshareDisabledByAuthor', 'content', 'contentLandingPage', 'contentCallToActionLabel', 'adContext', 'container', 'reshareContext']);

type Lines = string[];
const required = (path: string) => `${path} :: field is required but not found and has no default value`;
const notString = (path: string, value: unknown) => `${path} :: ${JSON.stringify(value)} cannot be coerced to String`;
const notEnum = (path: string, value: unknown) => `${path} :: ${JSON.stringify(value)} is not an enum symbol`;
const unknownField = (path: string) => `${path} :: unrecognized field found but not allowed`;

function str(obj: Record<string, unknown>, name: string, path: string, errors: Lines, must: boolean): string | undefined {
  const value = obj[name];
  if (value === undefined) {
    if (must) errors.push(required(`${path}/${name}`));
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push(notString(`${path}/${name}`, value));
    return undefined;
  }
  return value;
}

function enumValue(obj: Record<string, unknown>, name: string, path: string, symbols: string[], errors: Lines): string | undefined {
  const value = str(obj, name, path, errors, true);
  if (value !== undefined && !symbols.includes(value)) errors.push(notEnum(`${path}/${name}`, value));
  return value;
}

function checkDistribution(value: unknown, errors: Lines): void {
  if (value === undefined) return void errors.push(required('/distribution'));
  if (!isPlainObject(value)) return void errors.push(`/distribution :: ${JSON.stringify(value)} is not a record`);
  enumValue(value, 'feedDistribution', '/distribution', FEED, errors);
  for (const list of ['targetEntities', 'thirdPartyDistributionChannels']) {
    if (value[list] !== undefined && !Array.isArray(value[list])) errors.push(`/distribution/${list} :: ${JSON.stringify(value[list])} is not an array`);
  }
}

function checkMedia(value: Record<string, unknown>, path: string, errors: Lines): void {
  str(value, 'id', path, errors, true);
  str(value, 'title', path, errors, false);
  str(value, 'altText', path, errors, false);
}

function checkContent(value: unknown, errors: Lines): void {
  if (!isPlainObject(value)) return void errors.push(`/content :: ${JSON.stringify(value)} is not a record`);
  const kinds = Object.keys(value);
  // content is a Rest.li union: exactly one member.
  if (kinds.length !== 1) return void errors.push(`/content :: ${JSON.stringify(value)} is not a union with exactly one member`);
  const kind = kinds[0]!;
  const member = value[kind];
  const path = `/content/${kind}`;
  if (!['media', 'multiImage', 'article', 'poll', 'celebration', 'carousel', 'reference'].includes(kind)) return void errors.push(`${path} :: is not a member type of union`);
  if (!isPlainObject(member)) return void errors.push(`${path} :: ${JSON.stringify(member)} is not a record`);
  if (kind === 'media') checkMedia(member, path, errors);
  if (kind === 'article') {
    // Posts API, Article: source and title are required (LinkedIn does not read the page for a title);
    // the 422 for a missing title is captured in searlsco/posse_party#14.
    str(member, 'source', path, errors, true);
    str(member, 'title', path, errors, true);
    for (const name of ['description', 'thumbnail', 'thumbnailAltText']) str(member, name, path, errors, false);
  }
  if (kind === 'multiImage') {
    const images = member.images;
    if (images === undefined) return void errors.push(required(`${path}/images`));
    if (!Array.isArray(images)) return void errors.push(`${path}/images :: ${JSON.stringify(images)} is not an array`);
    images.forEach((image, i) => {
      if (!isPlainObject(image)) errors.push(`${path}/images/${i} :: ${JSON.stringify(image)} is not a record`);
      else checkMedia(image, `${path}/images/${i}`, errors);
    });
  }
}

/** The body as a PostBody, or the schema errors Rest.li reports for it. */
export function readPostBody(body: unknown): PostBody | Lines {
  if (!isPlainObject(body)) return ['/ :: the request body is not a JSON object'];
  const errors: Lines = [];
  for (const name of Object.keys(body)) if (!TOP_FIELDS.has(name)) errors.push(unknownField(`/${name}`));
  const author = str(body, 'author', '', errors, true);
  const commentary = str(body, 'commentary', '', errors, false);
  const visibility = enumValue(body, 'visibility', '', VISIBILITY, errors);
  checkDistribution(body.distribution, errors);
  const lifecycleState = enumValue(body, 'lifecycleState', '', LIFECYCLE, errors);
  const reshare = body.isReshareDisabledByAuthor;
  if (reshare !== undefined && typeof reshare !== 'boolean') errors.push(`/isReshareDisabledByAuthor :: ${JSON.stringify(reshare)} cannot be coerced to Boolean`);
  if (body.content !== undefined) checkContent(body.content, errors);
  if (errors.length) return errors;
  return {
    author: author!,
    commentary: commentary ?? '',
    visibility: visibility!,
    distribution: body.distribution as Record<string, unknown>,
    lifecycleState: lifecycleState!,
    isReshareDisabledByAuthor: (reshare as boolean | undefined) ?? false,
    content: body.content as PostContent | undefined,
  };
}
