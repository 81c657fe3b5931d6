// One load-generator process of the scale-out bench (bench/scale/generators.ts forks several): its own
// HTTP connections, each a closed loop of POST /v1/posts, so that the load is spread over as many
// processes as the figure needs and none of them is the bottleneck (their CPU is read from /proc).
// Commands arrive over IPC ({ run }); each run answers { done } with what it measured.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { decodeId } from '../../src/core/ids.ts';

export interface GeneratorRun {
  /** API base URLs; connection k of this process uses apis[(offset + k) % apis.length]. */
  apis: string[];
  offset: number;
  connections: number;
  durationSec: number;
  apiKey: string;
  /** Public account ids; post i goes to `accountsPerPost` consecutive accounts from i. */
  accounts: string[];
  accountsPerPost: number;
  /** Contents are `<tag> <i>`: unique per post, as the emulator's check for a target posted twice needs. */
  tag: string;
  /** Whether to answer with the created posts' raw ids (the publishing figures check each one). */
  keepIds: boolean;
}

export interface GeneratorResult {
  responses: number;
  /** Responses per status code. */
  codes: Record<string, number>;
  firstFailure: string | undefined;
  /** Milliseconds of every 200, unsorted. */
  latencies: Float64Array;
  postIds: number[];
  /** Date.now() when the first request was sent and the last answer came in. */
  firstSentAt: number;
  lastAnsweredAt: number;
}

export type GeneratorCommand = { run: GeneratorRun } | { exit: true };
export type GeneratorReply = { ready: true } | { done: GeneratorResult } | { failed: string };

async function run(spec: GeneratorRun, dispatcher: Agent): Promise<GeneratorResult> {
  const codes: Record<string, number> = {};
  const latencies: number[] = [];
  const postIds: number[] = [];
  let firstFailure: string | undefined;
  let next = 0;
  const firstSentAt = Date.now();
  const until = performance.now() + spec.durationSec * 1000;
  const headers = { authorization: `Bearer ${spec.apiKey}`, 'content-type': 'application/json' };
  const loop = async (connection: number) => {
    const api = spec.apis[(spec.offset + connection) % spec.apis.length]!;
    while (performance.now() < until) {
      const i = next++;
      const accounts = Array.from({ length: spec.accountsPerPost }, (_, k) => spec.accounts[(i + k) % spec.accounts.length]!);
      const t0 = performance.now();
      const res = await request(`${api}/v1/posts`, {
        method: 'POST', headers, dispatcher, body: JSON.stringify({ accounts, content: `${spec.tag} ${i}` }),
      });
      const text = await res.body.text();
      codes[res.statusCode] = (codes[res.statusCode] ?? 0) + 1;
      if (res.statusCode !== 200) {
        firstFailure ??= `HTTP ${res.statusCode}: ${text.slice(0, 300)}`;
        continue;
      }
      latencies.push(performance.now() - t0);
      if (spec.keepIds) postIds.push(rawPostId(JSON.parse(text).post.id));
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, c) => loop(c)));
  const responses = Object.values(codes).reduce((a, b) => a + b, 0);
  return { responses, codes, firstFailure, latencies: Float64Array.from(latencies), postIds, firstSentAt, lastAnsweredAt: Date.now() };
}

/** The API answers public (sqids) post ids; the bench's checks work with raw ones. */
function rawPostId(publicId: string): number {
  const id = decodeId(publicId);
  if (id === undefined) throw new Error(`the API answered a post id that does not decode: ${publicId}`);
  return id;
}

if (process.send) {
  const reply = (message: GeneratorReply) => process.send!(message);
  // Keep-alive connections, one per loop, reused from one run to the next (the warm-up's stay open).
  const dispatcher = new Agent({ pipelining: 1, keepAliveTimeout: 60_000 });
  process.on('message', (command: GeneratorCommand) => {
    if ('exit' in command) {
      void dispatcher.close().finally(() => process.exit(0));
      return;
    }
    run(command.run, dispatcher).then((done) => reply({ done }), (error: Error) => reply({ failed: error.stack ?? String(error) }));
  });
  reply({ ready: true });
}
