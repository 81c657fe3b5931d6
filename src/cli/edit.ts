// `crier edit <post id> --text <text> [--part <n>]`: changes a published post's text on the networks
// whose API can edit one (PATCH /v1/posts/:id/remote), part 1 (the post itself) unless --part names a
// later one of its thread. Prints what happened per account; exits 2 when the API refuses the edit (a
// text a network would refuse: nothing changed) and 4 when a network failed it.
import { request, usageFailure, type Connection } from './api.ts';
import { print, printJson, table } from './output.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

interface EditOutcome {
  social_account: { network: string; username: string };
  outcome: string;
  error?: string;
}

export async function editCommand(conn: Connection, positionals: string[], flags: { text?: string; part?: string; json: boolean }): Promise<number> {
  if (positionals.length !== 1) throw usageFailure(`edit needs one post id: ${CRIER_COMMAND} edit <post id> --text <text> [--part <n>]`);
  if (flags.text === undefined) throw usageFailure('edit needs --text: the new text');
  const part = flags.part === undefined ? 1 : Number(flags.part);
  if (!Number.isInteger(part) || part < 1 || part > 100) throw usageFailure(`--part must be a whole number from 1 (the post itself) to 100, not "${flags.part}"`);
  const containers = [...Array.from({ length: part - 1 }, () => ({})), { content: flags.text }];
  const answer = await request(conn, `/v1/posts/${encodeURIComponent(positionals[0]!)}/remote`, { method: 'PATCH', body: { containers } });
  const outcomes = answer.body.data as EditOutcome[];
  if (flags.json) printJson(answer.body);
  else {
    print(table(['network', 'account', 'outcome', 'why'], outcomes.map((o) => [o.social_account.network, `@${o.social_account.username}`, o.outcome, o.error ?? ''])));
  }
  return outcomes.some((o) => o.outcome === 'failed') ? EXIT.destinationFailed : EXIT.ok;
}
