// Every call to Crier goes through n8n's httpRequestWithAuthentication with the crierApi credential:
// n8n adds the Bearer key (CrierApi.authenticate), and a refusal by Crier becomes a NodeApiError that
// shows Crier's own message, code and refused fields in the editor.
import type {
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  IHttpRequestMethods,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  IN8nHttpFullResponse,
  JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export type CrierContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

export interface CrierRequest {
  body?: IDataObject | Buffer;
  qs?: IDataObject;
  headers?: Record<string, string>;
}

/** The largest page Crier's list endpoints give. */
export const PAGE_SIZE = 100;

/** Crier's error body: `{error, code, details: [{field, message}]}`. */
interface CrierErrorBody {
  error?: string;
  code?: string;
  details?: { field?: string; message?: string }[];
}

/** The body Crier answered with, where n8n's request helpers keep it on the error they throw. */
function crierErrorBody(error: unknown): CrierErrorBody | undefined {
  const failure = error as { context?: { data?: unknown }; response?: { body?: unknown; data?: unknown } };
  const body = failure.context?.data ?? failure.response?.body ?? failure.response?.data;
  return typeof body === 'object' && body !== null && typeof (body as CrierErrorBody).error === 'string' ? (body as CrierErrorBody) : undefined;
}

/**
 * A NodeApiError that shows Crier's own message, code and refused fields instead of n8n's generic
 * "Bad request". n8n's request helper already throws a NodeApiError, and wrapping one hands back the
 * same object: the message is set on it.
 */
function crierApiError(context: CrierContext, error: unknown): NodeApiError {
  const wrapped = new NodeApiError(context.getNode(), error as JsonObject);
  const body = crierErrorBody(error);
  if (body) {
    const details = (body.details ?? []).map((detail) => `${detail.field ?? ''}: ${detail.message ?? ''}`);
    wrapped.message = `Crier: ${body.error}`;
    wrapped.description = [body.code && `code ${body.code}`, ...details].filter(Boolean).join('\n') || wrapped.description;
  }
  return wrapped;
}

async function requestOptions(context: CrierContext, method: IHttpRequestMethods, path: string, request: CrierRequest): Promise<IHttpRequestOptions> {
  const { baseUrl } = await context.getCredentials<{ baseUrl: string }>('crierApi');
  return { method, url: `${String(baseUrl).replace(/\/+$/, '')}${path}`, json: true, ...request };
}

/** Calls `path` of Crier's API (`/v1/...`) and answers the parsed JSON body. */
export async function crierRequest(this: CrierContext, method: IHttpRequestMethods, path: string, request: CrierRequest = {}): Promise<IDataObject> {
  const options = await requestOptions(this, method, path, request);
  try {
    return (await this.helpers.httpRequestWithAuthentication.call(this, 'crierApi', options)) as IDataObject;
  } catch (error) {
    throw crierApiError(this, error);
  }
}

/** Like crierRequest, but every status is answered (not thrown), for callers that expect a 404. */
export async function crierResponse(this: CrierContext, method: IHttpRequestMethods, path: string): Promise<IN8nHttpFullResponse> {
  const options = await requestOptions(this, method, path, {});
  try {
    return (await this.helpers.httpRequestWithAuthentication.call(this, 'crierApi', { ...options, returnFullResponse: true, ignoreHttpStatusErrors: true })) as IN8nHttpFullResponse;
  } catch (error) {
    throw crierApiError(this, error);
  }
}

/**
 * The records a Crier list endpoint holds under `field` (`data`, `posts`), page after page of
 * `limit`/`offset`, up to `max` of them (every one when `max` is undefined).
 */
export async function crierList(this: CrierContext, path: string, field: string, qs: IDataObject = {}, max?: number): Promise<IDataObject[]> {
  const records: IDataObject[] = [];
  for (;;) {
    const limit = Math.min(PAGE_SIZE, (max ?? Number.POSITIVE_INFINITY) - records.length);
    const page = await crierRequest.call(this, 'GET', path, { qs: { ...qs, limit, offset: records.length } });
    const items = (page[field] ?? []) as IDataObject[];
    records.push(...items);
    if (items.length < limit || records.length === max) return records;
  }
}
