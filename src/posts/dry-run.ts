// POST /v1/posts?dry_run=true: what a create would answer, and what each targeted account's network
// would refuse before any call, with nothing stored and no Idempotency-Key consumed. The request's
// own rules (schema, accounts, block and target rules, the 30-day window) are the create's: a bad
// request is the same 400 (a post a target can never publish, decided from the request alone, is one).
// What a destination could not publish is judged by its network's `media.judge`, the very function its
// publishing side calls before calling the network, so a dry run says "ok: false", with publishing's
// own words, where publishing would fail that destination (a text over X's or Bluesky's length, which
// the spec leaves to publishing); then by the size of the media Crier holds and what the network says
// of the account now. Each destination also carries the post as its network will publish it (the
// network's `media.measure`, counted as its judge counts): the dashboard's preview. A request for
// "next-free-slot" is given the slot a create would take now, without taking it (`scheduledAt` in the
// answer), or the create's refusal.
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import { callAsAccount, orgAccount, type AccountCallDeps } from '../accounts/session.ts';
import type { PreflightPost } from '../core/post.ts';
import type { MeasuredPost } from '../networks/contract.ts';
import { refusalOf } from '../networks/preflight.ts';
import { networkFor } from '../networks/registry.ts';
import type { Queryable } from '../db/pool.ts';
import { tokenOfPublicUrl } from '../media/context.ts';
import type { ResolvedAccount } from './accounts.ts';
import { accountProblem } from './create.ts';
import type { CreateRequest, Parsed } from './validate.ts';

export interface DryRunDestination {
  accountId: string;
  network: string;
  username: string;
  ok: boolean;
  reasons: string[];
  /** A check with the network that could not be made now (it is made again when publishing). */
  notes?: string[];
  /** The post as the network will publish it: each part's text, counted the network's way, and media. */
  preview: MeasuredPost;
}

/** What the network says of a would-be post for one account now (its `preview` capability). */
export type RemotePreview = (account: ResolvedAccount, post: PreflightPost) => Promise<{ reasons: string[]; note?: string }>;

export interface DryRunBody {
  success: true;
  dryRun: true;
  warnings?: string[];
  /** The slot "next-free-slot" resolves to now (a create arriving first may take it). */
  scheduledAt?: string;
  destinations: DryRunDestination[];
}

/** Resolves "next-free-slot" for the resolved accounts as a create would, taking nothing; throws the create's RequestError. */
export type SlotPreview = (request: CreateRequest, accounts: ResolvedAccount[]) => Promise<Date>;

/** The `dry_run` query parameter: true, false, or a 400 naming the parameter. */
export function parseDryRun(raw: unknown): boolean {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === '' || raw === 'true' || raw === '1') return true;
  throw validationError([{ field: 'dry_run', message: 'must be "true" or "false"' }] satisfies FieldIssue[]);
}

/** What Crier knows of a media URL without fetching it: a file uploaded to it (its size and the type found in its bytes). */
export interface KnownMedia {
  size: number;
  contentType: string;
}

/**
 * The dry run's answer, or the create's RequestError. `resolve` is the create's account resolver:
 * the same entries name the same accounts in the same order. `known` looks up the media Crier holds
 * (nothing is downloaded for a dry run: a URL elsewhere is judged when publishing).
 */
export async function dryRunCreate(
  parsed: Parsed, resolve: (entries: string[]) => Promise<ResolvedAccount[]>, known: (urls: string[]) => Promise<Map<string, KnownMedia>> = async () => new Map(),
  remote: RemotePreview = async () => ({ reasons: [] }),
  /** Given when the body asks for "next-free-slot" (create.ts asksNextFreeSlot). */
  nextFreeSlot?: SlotPreview,
): Promise<DryRunBody> {
  if (!parsed.ok) throw validationError(parsed.details);
  const accounts = await resolve(parsed.request.accounts);
  const problem: RequestError | undefined = accountProblem(parsed.request, accounts);
  if (problem) throw problem;
  const slot = nextFreeSlot ? await nextFreeSlot(parsed.request, accounts) : undefined;
  const media = await known(parsed.request.containers.flatMap((c) => c.media.map((m) => m.url)));
  const destinations = await Promise.all(accounts.map((account) => destinationOf(parsed.request, account, media, remote)));
  const body: DryRunBody = { success: true, dryRun: true, destinations };
  if (parsed.request.warnings.length) body.warnings = parsed.request.warnings;
  if (slot) body.scheduledAt = slot.toISOString();
  return body;
}

async function destinationOf(request: CreateRequest, account: ResolvedAccount, media: Map<string, KnownMedia>, remote: RemotePreview): Promise<DryRunDestination> {
  const post: PreflightPost = { containers: request.containers, block: request.blocks[account.network] };
  const refusal = refusalOf(account.network, post);
  const reasons = [...(refusal === undefined ? [] : [refusal]), ...sizeReasons(request, account, media)];
  const asked = await remote(account, post);
  reasons.push(...asked.reasons);
  const destination: DryRunDestination = { accountId: encodeId(account.id), network: account.network, username: account.username, ok: reasons.length === 0, reasons, preview: networkFor(account.network).media.measure(post) };
  if (asked.note) destination.notes = [asked.note];
  return destination;
}

/**
 * The route's RemotePreview: the network's `preview` as the account (token refreshed once if refused),
 * for a connected account whose network has one. A network that cannot answer now is a note, not a
 * refusal: the same check is made when publishing.
 */
export function networkPreview(deps: AccountCallDeps, orgId: number): RemotePreview {
  return async (account, post) => {
    const preview = deps.networks.capabilities(account.network).preview;
    if (!preview) return { reasons: [] };
    const loaded = await orgAccount(deps, orgId, account.id);
    if (!loaded.active) return { reasons: [] };
    try {
      return { reasons: await callAsAccount(deps, loaded.credentials, (session) => preview(session, post)) };
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      return { reasons: [], note: `${deps.networks.get(account.network).label} could not be asked about this account now (${error.message}); publishing asks again` };
    }
  };
}

/**
 * A video Crier holds that is larger than the network takes (its video profile's maxBytes), unless
 * processMedia will re-encode it for the network.
 */
function sizeReasons(request: CreateRequest, account: ResolvedAccount, media: Map<string, KnownMedia>): string[] {
  if (request.processMedia) return [];
  const profile = networkFor(account.network).media.videoProfile(request.blocks[account.network]);
  if (!profile?.maxBytes) return [];
  return request.containers.flatMap((c) => c.media).flatMap((m) => {
    const file = media.get(m.url);
    if (!file || !file.contentType.startsWith('video/') || file.size <= profile.maxBytes!) return [];
    return [`media ${m.filename} is ${file.size} bytes; ${profile.label} takes videos up to ${profile.maxBytes} bytes`];
  });
}

/**
 * The media of a dry run that Crier holds, by URL (their size and the type found in their bytes), for
 * an organization: what `dryRunCreate`'s `known` asks. URLs of other hosts are not looked up.
 */
export function knownMediaReader(db: Queryable, publicBaseUrl: string): (orgId: number, urls: string[]) => Promise<Map<string, KnownMedia>> {
  return async (orgId, urls) => {
    const tokens = new Map(urls.flatMap((url) => {
      const token = tokenOfPublicUrl(publicBaseUrl, url);
      return token ? [[token, url] as const] : [];
    }));
    if (!tokens.size) return new Map();
    const { rows } = await db.query<{ token: string; size: string; content_type: string }>(
      "SELECT token, size, content_type FROM media WHERE org_id = $1 AND token = ANY($2) AND status = 'ready'", [orgId, [...tokens.keys()]],
    );
    return new Map(rows.map((r) => [tokens.get(r.token)!, { size: Number(r.size), contentType: r.content_type }]));
  };
}
