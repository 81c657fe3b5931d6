// What the client commands are and how they are used: read by main.ts to route a command, and by
// the printed usage. No imports: main.ts loads this before knowing which half it needs.

/**
 * How a person types the command in a checkout of Crier (package.json's "bin", which npx finds in the
 * project without installing anything): every command Crier prints for someone to run starts with it.
 */
export const CRIER_COMMAND = 'npx crier';

export const CLIENT_COMMANDS = ['accounts', 'post', 'posts', 'status', 'approve', 'reject', 'edit', 'verify', 'webhooks', 'events', 'queues', 'recurrences', 'evergreen', 'import'] as const;

export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

export const isClientCommand = (name: string | undefined): name is ClientCommand =>
  (CLIENT_COMMANDS as readonly string[]).includes(name ?? '');

/** What each exit code of a client command means (README, "Clients → CLI"). */
export const EXIT = {
  ok: 0,
  usage: 1,
  refused: 2,
  unreachable: 3,
  destinationFailed: 4,
} as const;

export const CLIENT_USAGE = `Client commands, against any Crier over HTTP (CRIER_URL and CRIER_API_KEY, or --url and --key;
--json prints the API's JSON instead of a table):
  accounts                            the connected accounts: id, network, username
  post --to <id|username>... --text <text> [--reply <text>]... [--media <file|url>]...
       [--at <ISO time|+10m|+2h|+1d>] [--draft] [--dry-run] [--idempotency-key <key>]
                                      local files are uploaded first (progress on stderr)
  posts [--account <id>] [--tenant <id>] [--created-after <t>] [--created-before <t>]
        [--scheduled-after <t>] [--scheduled-before <t>] [--status <s1,s2>] [--limit <n>] [--offset <n>]
                                      --status pending_approval: the posts waiting for a decision
  status <post id> [--watch]          each destination's state; --watch follows it until final
  approve <post id>                   queues a post waiting for approval (approver or admin key)
  reject <post id> [--reason <text>]  rejects a post waiting for approval, for good
  edit <post id> --text <text> [--part <n>]
                                      changes a published post's text (part 1: the post, 2…: its
                                      thread) where the network can edit; judged first
  verify <network> [--account <id|username>] [--dry] [--image <file|url>] [--video <file|url>]
         [--block <json>] [--keep] [--timeout <seconds>]
                                      a live check of a real network through a connected
                                      account: publishes what the network takes (a text, an
                                      image, a video, a thread), reads it back, deletes it;
                                      --dry only plans
  webhooks list | create --name <n> --endpoint <https url> --events <e1,e2> [--generate-secret]
         | delete <id> | test <id>
  events [--after <cursor>] [--types <t1,t2>] [--limit <n>] [--follow]
                                      the org's events (what webhooks carry), oldest first;
                                      --follow prints new ones until interrupted
  queues list | show <id> [--slots <n>] | delete <id>
         | create --account <id|username> --zone <IANA zone> --slot <day@HH:MM>...
                                      each account's weekly posting slots (--slot mon@09:00)
  recurrences list | show <id> | pause <id> | resume <id> | delete <id>
         | create --to <id|username>... --text <text> [--reply <text>]...
                  (--every <2d|6h|1d12h> | --weekly <mon,thu@09:00> --zone <IANA zone>)
                  [--start <time>] [--count <n>] [--until <time>]
         | update <id> --text <text> [--reply <text>]...
                                      posts that repeat, each occurrence a post of its own
  evergreen list | show <id> | pause <id> | resume <id> | delete <id>
         | create --name <n> --to <id|username>... --text <item>...
                  (--queue | --every <7d> | --weekly <mon@09:00> --zone <IANA zone>)
                  [--gap <days>] [--start <time>]
         | add <id> --text <item> [--variation <text>]...
                                      a pool of posts re-shared, none within --gap days
  import <file.csv|file.jsonl> [--dry-run] [--wait] [--idempotency-key <key>]
         | list | show <id> [--wait] | cancel <id>
                                      many posts from one file: --dry-run prints each row's
                                      verdict; --wait follows the import until every row is done
  mcp                                 an MCP server on stdin/stdout for AI agents (README, Clients → MCP)
Exit codes: 0 ok, 1 usage, 2 refused by the API (4xx, a dry run with a destination or a row refused,
or an import that ended with a row failed or cancelled),
3 Crier unreachable or failing (5xx), 4 a destination failed (status), a test delivery failed
(webhooks test) or a step of a live check failed (verify).`;
