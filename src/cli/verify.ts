// `crier verify <network>`: a live check of one network, run through a running Crier with an account
// connected to the real network. It publishes what the network takes (a text, an image, a video, a
// thread), reads the post back (its replies and figures), deletes it from the network and removes
// Crier's records, and prints a verdict per step with the network's own words on failure. `--dry`
// lists the plan and what the network's judgement says of each post, and publishes nothing.
//
// What the network takes is asked of Crier, not written here: each candidate post goes through
// POST /v1/posts?dry_run=true first (the network's own judgement), so a network that refuses a text
// post, or a PNG, is skipped with its reason rather than failed. Never run in CI: it posts for real.
import { crc32, deflateSync } from 'node:zlib';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientFailure, request, usageFailure, type Connection } from './api.ts';
import { handle, print, printJson, table } from './output.ts';
import { resolveMedia, type MediaInput } from './upload.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface VerifyFlags {
  network: string;
  account?: string;
  image?: string;
  video?: string;
  block?: string;
  dry: boolean;
  keep: boolean;
  timeoutSeconds: number;
  json: boolean;
}

type Verdict = 'ok' | 'failed' | 'skipped' | 'planned';

interface Step {
  step: string;
  verdict: Verdict;
  detail: string;
}

interface Candidate {
  name: 'text' | 'image' | 'video' | 'thread';
  containers: { content: string; media?: MediaInput[] }[];
  /** Why it is not tried (no file given, or the dry run's reasons). */
  skip?: string;
}

interface Account {
  id: string;
  network: string;
  username: string;
  /** Connected by `crier start --sandbox`: its network is an emulator. */
  sandbox?: boolean;
}

export async function verifyCommand(conn: Connection, flags: VerifyFlags): Promise<number> {
  const steps: Step[] = [];
  const say = (step: string, verdict: Verdict, detail: string) => {
    steps.push({ step, verdict, detail });
    // A live run takes minutes (videos): each step is told as it ends; the table comes at the end.
    if (!flags.json && !flags.dry) process.stderr.write(`${verdict.padEnd(7)} ${step}: ${detail}\n`);
  };
  const block = parseBlock(flags.block);
  for (const file of [flags.image, flags.video]) if (file && !/^https?:\/\//i.test(file)) await mustBeFile(file);
  const account = await findAccount(conn, flags.network, flags.account);
  say('account', 'ok', `${account.network} ${handle(account.username)} (${account.id})${account.sandbox ? ': a sandbox account, on an emulator, not the real network' : ''}`);
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const candidates = await judged(conn, account, planned(stamp, flags), block);
  for (const c of candidates) say(`judge ${c.name}`, c.skip ? 'skipped' : 'ok', c.skip ?? `the network's judgement takes ${describe(c)}`);
  if (candidates.every((c) => c.skip)) {
    say('plan', 'failed', 'the network takes none of the posts a live check makes: nothing can be checked (give --image or --video with a file it takes)');
    return report(steps, account, flags.json);
  }
  if (flags.dry) {
    for (const c of candidates.filter((c) => !c.skip)) say(`publish ${c.name}`, 'planned', `would publish ${describe(c)} to ${handle(account.username)}, then delete it`);
    say('read back', 'planned', 'would read the first post\'s replies and figures from the network');
    say('delete', 'planned', 'would delete every post from the network, then Crier\'s records');
    return report(steps, account, flags.json);
  }
  const published = await publishAll(conn, account, candidates, block, flags, say);
  if (published[0]) await readBack(conn, account, published[0], say);
  for (const id of published) await removeEverywhere(conn, id, flags.keep, say);
  return report(steps, account, flags.json);
}

async function mustBeFile(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw usageFailure(`${file}: no such file`);
}

function parseBlock(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  try {
    const block = JSON.parse(raw);
    if (typeof block === 'object' && block !== null && !Array.isArray(block)) return block;
  } catch { /* said below */ }
  throw usageFailure(`--block must be a JSON object: the network's platform block, e.g. --block '{"board_id":"123"}'`);
}

async function findAccount(conn: Connection, network: string, wanted: string | undefined): Promise<Account> {
  const { body } = await request<{ data: (Account & { sandbox?: boolean })[] }>(conn, '/v1/social-accounts?limit=100');
  const ofNetwork = body.data.filter((a) => a.network === network);
  const chosen = wanted ? ofNetwork.find((a) => a.id === wanted || a.username === wanted || handle(a.username) === wanted) : ofNetwork[0];
  if (chosen) return chosen;
  const known = [...new Set(body.data.map((a) => a.network))].join(', ') || 'none';
  throw new ClientFailure(wanted
    ? `no ${network} account "${wanted}" is connected (${CRIER_COMMAND} accounts lists them)`
    : `no ${network} account is connected to this Crier (networks with accounts: ${known}); connect one first`, EXIT.refused);
}

/** The posts a live check tries, each stamped so it is recognisable on the network. */
function planned(stamp: string, flags: VerifyFlags): Candidate[] {
  const text = (what: string) => `Crier verify ${stamp}: ${what}. This post deletes itself.`;
  return [
    { name: 'text', containers: [{ content: text('a text post') }] },
    { name: 'image', containers: [{ content: text('an image'), media: [{ url: flags.image ?? GENERATED_IMAGE, filename: path.basename(flags.image ?? GENERATED_IMAGE) }] }] },
    flags.video
      ? { name: 'video', containers: [{ content: text('a video'), media: [{ url: flags.video, filename: path.basename(flags.video) }] }] }
      : { name: 'video', containers: [], skip: 'no video given: pass --video <file> (one the network takes) to check videos' },
    { name: 'thread', containers: [{ content: text('a thread') }, { content: `Crier verify ${stamp}: the reply in the thread.` }] },
  ];
}

/** Stands for the PNG generated at publish time; judged by its name like any URL. */
const GENERATED_IMAGE = 'https://crier.invalid/crier-verify.png';

/** Each candidate through the dry run: what the network's judgement would refuse, it skips. */
async function judged(conn: Connection, account: Account, candidates: Candidate[], block: Record<string, unknown> | undefined): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    if (candidate.skip) {
      out.push(candidate);
      continue;
    }
    let reasons = await dryRunReasons(conn, account, postBody(account, dryContainers(candidate.containers), block));
    // A network whose posts need media (Instagram, TikTok…) takes a thread whose root carries the image.
    if (reasons.length && candidate.name === 'thread') {
      const image = candidates.find((c) => c.name === 'image')!.containers[0]!.media!;
      const withImage = [{ ...candidate.containers[0]!, media: image }, ...candidate.containers.slice(1)];
      const again = await dryRunReasons(conn, account, postBody(account, dryContainers(withImage), block));
      if (!again.length) {
        out.push({ ...candidate, containers: withImage });
        continue;
      }
      reasons = again;
    }
    out.push(reasons.length ? { ...candidate, skip: `not taken: ${reasons.join('; ')}` } : candidate);
  }
  return out;
}

/** A local file is judged by its name: as a URL the dry run will not download. */
const dryContainers = (containers: Candidate['containers']) => containers.map((c) => ({
  ...c, ...(c.media ? { media: c.media.map((m) => (/^https?:\/\//i.test(m.url) ? m : { url: `https://crier.invalid/${m.filename}`, filename: m.filename })) } : {}),
}));

/**
 * The dry run's reasons against the post, from the network's judgement. A refusal of the network's
 * platform block (a field the network requires, such as Pinterest's board) is the operator's to fix:
 * it stops the check, naming --block.
 */
async function dryRunReasons(conn: Connection, account: Account, body: object): Promise<string[]> {
  try {
    const { body: answer } = await request(conn, '/v1/posts?dry_run=true', { method: 'POST', body });
    return (answer.destinations as { ok: boolean; reasons: string[] }[]).flatMap((d) => (d.ok ? [] : d.reasons));
  } catch (error) {
    if (!(error instanceof ClientFailure) || error.exitCode !== EXIT.refused) throw error;
    const details = (error.body as { details?: { field?: string; message?: string }[] } | undefined)?.details ?? [];
    const ofBlock = details.filter((d) => d.field?.startsWith(`${account.network}.`));
    if (ofBlock.length) {
      throw new ClientFailure(`${account.network} needs its platform block for these posts: ${ofBlock.map((d) => `${d.field}: ${d.message}`).join('; ')}. ` +
        `Pass it with --block '<json>' (e.g. --block '{"${ofBlock[0]!.field!.slice(account.network.length + 1).split('.')[0]}":"…"}')`, EXIT.usage);
    }
    return details.length ? details.map((d) => `${d.field ? `${d.field}: ` : ''}${d.message}`) : [error.message];
  }
}

function postBody(account: Account, containers: Candidate['containers'], block: Record<string, unknown> | undefined) {
  return { accounts: [account.id], containers, ...(block ? { [account.network]: block } : {}) };
}

const describe = (c: Candidate) => (c.name === 'thread' ? `a thread of ${c.containers.length}${c.containers[0]!.media ? ' (an image first)' : ''}` : c.name === 'text' ? 'a text post' : `a post with ${c.name === 'image' ? 'an image' : 'a video'}`);

/** Publishes each candidate the judgement took, one after the other; answers the ids of those published. */
async function publishAll(conn: Connection, account: Account, candidates: Candidate[], block: Record<string, unknown> | undefined, flags: VerifyFlags, say: (s: string, v: Verdict, d: string) => void): Promise<string[]> {
  const published: string[] = [];
  let scratch: string | undefined;
  try {
    for (const candidate of candidates.filter((c) => !c.skip)) {
      const containers = [];
      for (const c of candidate.containers) {
        if (!c.media) {
          containers.push(c);
          continue;
        }
        const files = [];
        for (const m of c.media) {
          if (m.url !== GENERATED_IMAGE) files.push(m.url);
          else files.push(await writePng((scratch ??= await mkdtemp(path.join(os.tmpdir(), 'crier-verify-')))));
        }
        containers.push({ ...c, media: await resolveMedia(conn, files) });
      }
      const created = await request(conn, '/v1/posts', { method: 'POST', body: postBody(account, containers, block) });
      const id = created.body.post.id as string;
      const destination = await settled(conn, id, flags.timeoutSeconds);
      if (destination.status === 'published') {
        published.push(id);
        say(`publish ${candidate.name}`, 'ok', `published: ${destination.platformPostUrl ?? destination.platformPostId} (post ${id})`);
      } else {
        if (!flags.keep) await request(conn, `/v1/posts/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {});
        say(`publish ${candidate.name}`, 'failed', `${destination.status}: ${destination.error ?? 'no reason given'} (post ${id})`);
      }
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
  return published;
}

interface Destination {
  status: string;
  error?: string | null;
  platformPostId?: string | null;
  platformPostUrl?: string | null;
}

/** Polls the post until its destination is final, or says so after `timeoutSeconds`. */
async function settled(conn: Connection, id: string, timeoutSeconds: number): Promise<Destination> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const destination = (await request(conn, `/v1/posts/${encodeURIComponent(id)}`)).body.post.socialAccounts[0] as Destination;
    if (!['pending', 'publishing'].includes(destination.status)) return destination;
    if (Date.now() > deadline) return { status: destination.status, error: `still ${destination.status} after ${timeoutSeconds} s (--timeout)` };
    await sleep(1000);
  }
}

/** Reads the post back from the network: its replies and its figures, where the network offers them. */
async function readBack(conn: Connection, account: Account, id: string, say: (s: string, v: Verdict, d: string) => void): Promise<void> {
  const post = encodeURIComponent(id);
  try {
    const { body } = await request(conn, `/v1/posts/${post}/replies?network=${encodeURIComponent(account.network)}`);
    say('read replies', 'ok', `the network listed ${(body.data as unknown[] | undefined)?.length ?? 0} replies`);
  } catch (error) {
    if (!(error instanceof ClientFailure)) throw error;
    // A network without comments an app can read is refused with a *_not_supported code: not a failure.
    const code = (error.body as { code?: string } | undefined)?.code;
    say('read replies', code !== undefined && /(^|_)not_supported$/.test(code) ? 'skipped' : 'failed', error.message);
  }
  try {
    const { body } = await request(conn, `/v1/posts/${post}/analytics`);
    const entry = body.metrics_by_account?.[0] as { metrics: Record<string, unknown> | null; unavailable?: string } | undefined;
    if (entry?.metrics) say('read figures', 'ok', Object.entries(entry.metrics).filter(([, v]) => v !== null).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ') || 'the network answered, with no figures yet');
    // "gives no figures of a post to apps": the network has none to read (engagement/analytics.ts).
    else say('read figures', /gives no figures/.test(entry?.unavailable ?? '') ? 'skipped' : 'failed', entry?.unavailable ?? 'no figures answered');
  } catch (error) {
    if (!(error instanceof ClientFailure)) throw error;
    say('read figures', 'failed', error.message);
  }
}

/** Deletes the post from the network (DELETE /v1/posts/:id/remote), then Crier's record unless --keep. */
async function removeEverywhere(conn: Connection, id: string, keep: boolean, say: (s: string, v: Verdict, d: string) => void): Promise<void> {
  const post = encodeURIComponent(id);
  try {
    const { body } = await request(conn, `/v1/posts/${post}/remote`, { method: 'DELETE' });
    for (const r of body.data as { outcome: string; error?: string; platform_post_id: string | null }[]) {
      if (r.outcome === 'deleted') say('delete', 'ok', `deleted ${r.platform_post_id} from the network (post ${id})`);
      else if (r.outcome === 'not_supported') say('delete', 'skipped', `the network's API cannot delete: delete ${r.platform_post_id} in its app (post ${id})`);
      else say('delete', 'failed', `${r.outcome}: ${r.error ?? ''} (post ${id})`);
    }
  } catch (error) {
    if (!(error instanceof ClientFailure)) throw error;
    say('delete', 'failed', `${error.message} (post ${id})`);
  }
  if (keep) return;
  await request(conn, `/v1/posts/${post}`, { method: 'DELETE' }).then(
    () => say('clean up', 'ok', `Crier's record of post ${id} removed`),
    (error: Error) => say('clean up', 'failed', `post ${id}: ${error.message}`),
  );
}

function report(steps: Step[], account: Account, json: boolean): number {
  const failed = steps.some((s) => s.verdict === 'failed');
  if (json) printJson({ success: !failed, network: account.network, account, steps });
  else print(`\n${table(['STEP', 'VERDICT', 'DETAIL'], steps.map((s) => [s.step, s.verdict, s.detail]))}\n${failed ? 'FAILED' : 'OK'}: ${account.network} ${handle(account.username)}`);
  return failed ? EXIT.destinationFailed : EXIT.ok;
}

/** A 1080×1080 PNG of one colour, made here: a live check needs no file from the operator. */
async function writePng(dir: string): Promise<string> {
  const side = 1080;
  const row = Buffer.alloc(1 + side * 3);
  for (let x = 0; x < side; x++) row.set([0x2b, 0x6c, 0xb0], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: side }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  const file = path.join(dir, 'crier-verify.png');
  await writeFile(file, png);
  return file;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
