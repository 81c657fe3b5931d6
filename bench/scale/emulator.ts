// One X emulator process of the scale-out bench (bench/scale/emulators.ts forks one per worker): each
// worker publishes to its own, so that the network side grows with the workers and a single emulator
// process never caps the publishing figure. Every process holds the same users (ids and tokens), as
// the accounts are the same whichever worker publishes. Commands arrive over IPC.
import { startXEmulator, type AddUserInput, type XEmulator, type XTweet } from '../../emulators/x/server.ts';

export type EmulatorCommand = { start: { users: AddUserInput[] } } | { tweets: { prefix: string } } | { exit: true };
export type EmulatorReply = { url: string } | { tweets: XTweet[] } | { failed: string };

let emulator: XEmulator | undefined;

async function handle(command: EmulatorCommand): Promise<EmulatorReply | undefined> {
  if ('start' in command) {
    // X's rate limits would throttle the bench; the duplicate check is off so that a target published
    // twice shows up as a second tweet instead of being adopted as the first (bench/publishing/run.ts).
    emulator = await startXEmulator({
      rateLimits: { 'POST /2/tweets': 1e9, 'GET /2/users/:id/tweets': 1e9, 'GET /2/users/me': 1e9 },
      duplicateWindowMs: 0,
    });
    for (const user of command.start.users) emulator.addUser(user);
    return { url: emulator.url };
  }
  if ('tweets' in command) return { tweets: (emulator?.tweets() ?? []).filter((t) => t.text.startsWith(command.tweets.prefix)) };
  await emulator?.close();
  process.exit(0);
}

if (process.send) {
  process.on('message', (command: EmulatorCommand) => {
    handle(command).then(
      (reply) => reply && process.send!(reply),
      (error: Error) => process.send!({ failed: error.stack ?? String(error) } satisfies EmulatorReply),
    );
  });
}
