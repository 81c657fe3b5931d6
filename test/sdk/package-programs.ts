// The two programs test/sdk/package.test.ts runs in a fresh project where @crier/sdk is installed
// from its packed tarball, as a user's code would call it: one in plain JavaScript (app.mjs), one in
// TypeScript (app.ts) type-checked against the installed declarations, then run by Node as is.
// They are text, not modules of this repo: '@crier/sdk' resolves only inside that project.
// Both do the same calls and print the same JSON, which the test asserts on.

/** What both programs print: one line of JSON. */
export interface ProgramReport {
  validated: { dryRun: boolean; destinations: [string, boolean][] };
  /** The Idempotency-Key of every POST /v1/posts the program sent, in order. */
  created: { id: string; keysSent: string[] };
  keyed: { key: string; first: string; second: string };
  listed: string[];
  got: { id: string; content: string };
  media: { status: string; size: number; served: number };
  webhook: { secretPrefix: string; listed: boolean };
  error: { isCrierError: boolean; name: string; status: number; code: string | undefined; fields: string[] };
  unsigned: { ok: boolean; reason?: string };
}

/** The same 1×1 PNG as client.test.ts. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const JS_PROGRAM = String.raw`// Plain JavaScript (ESM) against the installed @crier/sdk.
import { randomUUID } from 'node:crypto';
import { Crier, CrierError, verifyWebhook } from '@crier/sdk';

const { CRIER_URL, CRIER_API_KEY, CRIER_ACCOUNT, CRIER_HOOK_URL, CRIER_TAG } = process.env;
const keysSent = [];
let answerLost = false;
// The first create's answer is lost on the way back, as on a dropped connection: the SDK retries it.
const losingFirstCreate = async (url, init) => {
  const response = await fetch(url, init);
  if (init.method !== 'POST' || !url.endsWith('/v1/posts')) return response;
  keysSent.push(init.headers['idempotency-key']);
  if (answerLost) return response;
  answerLost = true;
  await response.text();
  throw new TypeError('fetch failed: socket hang up');
};
const crier = new Crier({ baseUrl: CRIER_URL, apiKey: CRIER_API_KEY, fetch: losingFirstCreate, retry: { backoffMs: 10 } });
const content = 'first post (' + CRIER_TAG + ')';

const verdict = await crier.posts.validate({ accounts: [CRIER_ACCOUNT], content });
const { post } = await crier.posts.create({ accounts: [CRIER_ACCOUNT], content });
const key = randomUUID();
const keyedBody = { accounts: [CRIER_ACCOUNT], content: 'keyed (' + CRIER_TAG + ')', isDraft: true };
const first = await crier.posts.create(keyedBody, { idempotencyKey: key });
const second = await crier.posts.create(keyedBody, { idempotencyKey: key });
const listed = await crier.posts.list({ social_account_id: CRIER_ACCOUNT });
const got = await crier.posts.get(post.id);

const media = await crier.media.upload({ filename: 'dot.png', bytes: Buffer.from('${PNG_BASE64}', 'base64') });
const served = await fetch(media.url);

const hook = await crier.webhooks.create({ name: 'app', url: CRIER_HOOK_URL, events: ['post.published', 'post.error'], generateSecret: true });
const hooks = await crier.webhooks.list();

const error = await crier.posts.create({ accounts: [CRIER_ACCOUNT], containers: [{ content: 'x', media: [{ url: 'not a url', filename: 'a.jpg' }] }] }).catch((e) => e);

console.log(JSON.stringify({
  validated: { dryRun: verdict.dryRun, destinations: verdict.destinations.map((d) => [d.accountId, d.ok]) },
  created: { id: post.id, keysSent },
  keyed: { key, first: first.post.id, second: second.post.id },
  listed: listed.posts.map((p) => p.containers[0].content).sort(),
  got: { id: got.post.id, content: got.post.containers[0].content },
  media: { status: media.status, size: media.size, served: (await served.arrayBuffer()).byteLength },
  webhook: { secretPrefix: hook.data.secret.slice(0, 6), listed: hooks.data.some((h) => h.id === hook.data.id) },
  error: { isCrierError: error instanceof CrierError, name: error.name, status: error.status, code: error.code, fields: error.details.map((d) => d.field) },
  unsigned: verifyWebhook('{}', {}, hook.data.secret),
}));
`;

export const TS_PROGRAM = String.raw`// TypeScript against the installed @crier/sdk: checked by tsc against its declarations, run by Node.
import { randomUUID } from 'node:crypto';
import { Crier, CrierError, verifyWebhook, type CreatePostInput, type FetchLike, type Post, type PostValidation } from '@crier/sdk';

const env = (name: string): string => process.env[name] ?? '';
const account = env('CRIER_ACCOUNT');
const keysSent: string[] = [];
let answerLost = false;
// The first create's answer is lost on the way back, as on a dropped connection: the SDK retries it.
const losingFirstCreate: FetchLike = async (url, init) => {
  const response = await fetch(url, init);
  if (init.method !== 'POST' || !url.endsWith('/v1/posts')) return response;
  keysSent.push((init.headers as Record<string, string>)['idempotency-key'] ?? '');
  if (answerLost) return response;
  answerLost = true;
  await response.text();
  throw new TypeError('fetch failed: socket hang up');
};
const crier = new Crier({ baseUrl: env('CRIER_URL'), apiKey: env('CRIER_API_KEY'), fetch: losingFirstCreate, retry: { backoffMs: 10 } });
const content = 'first post (' + env('CRIER_TAG') + ')';

// The declarations are the API's types, not any: a wrong body does not compile.
function neverCalled() {
  // @ts-expect-error accounts is a list of account ids
  void crier.posts.create({ accounts: account, content });
  // @ts-expect-error a webhook's events are Crier's event names
  void crier.webhooks.create({ name: 'x', url: 'https://x', events: ['post.sent'] });
}
void neverCalled;

const verdict: PostValidation = await crier.posts.validate({ accounts: [account], content });
const { post } = await crier.posts.create({ accounts: [account], content });
const key = randomUUID();
const keyedBody: CreatePostInput = { accounts: [account], content: 'keyed (' + env('CRIER_TAG') + ')', isDraft: true };
const first = await crier.posts.create(keyedBody, { idempotencyKey: key });
const second = await crier.posts.create(keyedBody, { idempotencyKey: key });
const listed: Post[] = (await crier.posts.list({ social_account_id: account })).posts;
const got = await crier.posts.get(post.id);

const media = await crier.media.upload({ filename: 'dot.png', bytes: Buffer.from('${PNG_BASE64}', 'base64') });
const served = await fetch(media.url!);

const hook = await crier.webhooks.create({ name: 'app', url: env('CRIER_HOOK_URL'), events: ['post.published', 'post.error'], generateSecret: true });
const hooks = await crier.webhooks.list();

const error: unknown = await crier.posts.create({ accounts: [account], containers: [{ content: 'x', media: [{ url: 'not a url', filename: 'a.jpg' }] }] }).catch((e: unknown) => e);
if (!(error instanceof CrierError)) throw new Error('expected a CrierError, got ' + String(error));

console.log(JSON.stringify({
  validated: { dryRun: verdict.dryRun, destinations: verdict.destinations.map((d) => [d.accountId, d.ok]) },
  created: { id: post.id, keysSent },
  keyed: { key, first: first.post.id, second: second.post.id },
  listed: listed.map((p) => p.containers[0]!.content).sort(),
  got: { id: got.post.id, content: got.post.containers[0]!.content },
  media: { status: media.status, size: media.size, served: (await served.arrayBuffer()).byteLength },
  webhook: { secretPrefix: (hook.data.secret ?? '').slice(0, 6), listed: hooks.data.some((h) => h.id === hook.data.id) },
  error: { isCrierError: true, name: error.name, status: error.status, code: error.code, fields: error.details.map((d) => d.field) },
  unsigned: verifyWebhook('{}', {}, hook.data.secret ?? ''),
}));
`;

/** What a TypeScript project on Node would have; @types/node gives the fetch types the declarations use. */
export function consumerTsconfig(typesRoot: string): string {
  return JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      strict: true,
      noEmit: true,
      // What Node's type stripping can run: tsc refuses anything it could not.
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
      // The shipped declarations are checked too, not taken on trust.
      skipLibCheck: false,
      typeRoots: [typesRoot],
      types: ['node'],
    },
    include: ['app.ts'],
  }, null, 2);
}
