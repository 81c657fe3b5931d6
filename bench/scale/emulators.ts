// The X emulator processes of the scale-out bench (bench/scale/emulator.ts), one per worker, and the
// fixture's users they all hold.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { AddUserInput, XTweet, XUser } from '../../emulators/x/server.ts';
import type { EmulatorCommand, EmulatorReply } from './emulator.ts';

export interface Emulators {
  urls: string[];
  pids: number[];
  /** Every tweet whose text starts with `prefix`, from all of them. */
  tweets(prefix: string): Promise<XTweet[]>;
  stop(): Promise<void>;
}

/**
 * Collects the users bench/publishing/fixture.ts adds (its `addUser`), with fixed ids so that every
 * emulator process can hold the same ones.
 */
export function userRecorder(): { users: AddUserInput[]; addUser(input: AddUserInput): Pick<XUser, 'id'> } {
  const users: AddUserInput[] = [];
  return {
    users,
    addUser(input) {
      const user = { ...input, id: String(1_000_000 + users.length) };
      users.push(user);
      return { id: user.id };
    },
  };
}

const SCRIPT = path.join(import.meta.dirname, 'emulator.ts');

export async function startEmulators(count: number, users: AddUserInput[], log: (line: string) => void): Promise<Emulators> {
  const children = Array.from({ length: count }, (_, i) => forkEmulator(i + 1, log));
  const stop = () => Promise.all(children.map(async ({ child, exited }) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ exit: true } satisfies EmulatorCommand);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  })).then(() => {});
  try {
    const urls = await Promise.all(children.map(async (c) => {
      const reply = await c.ask({ start: { users } });
      if (!('url' in reply)) throw new Error(`X emulator did not start: ${'failed' in reply ? reply.failed : 'no url'}`);
      return reply.url;
    }));
    return {
      urls,
      pids: children.map((c) => c.child.pid!),
      async tweets(prefix) {
        const replies = await Promise.all(children.map((c) => c.ask({ tweets: { prefix } })));
        return replies.flatMap((r) => ('tweets' in r ? r.tweets : []));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A forked emulator; `ask` sends one command and awaits its reply (commands are sent one at a time). */
function forkEmulator(n: number, log: (line: string) => void) {
  const child: ChildProcess = fork(SCRIPT, [], { serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) log(`[x-emulator${n}] ${line}`);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = (command: EmulatorCommand) => new Promise<EmulatorReply>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`X emulator ${n} exited (code ${code})`));
    child.once('exit', onExit);
    child.once('message', (reply: EmulatorReply) => {
      child.off('exit', onExit);
      resolve(reply);
    });
    child.send(command);
  });
  return { child, exited, ask };
}
