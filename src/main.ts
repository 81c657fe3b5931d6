// The `crier` command line. Operator commands (start, api, worker, migrate, org, key, secrets,
// doctor) run Crier or work on its database: cli/operator.ts. Client commands (cli/usage.ts lists
// them: accounts, post, posts, status, verify, webhooks, events, queues, recurrences, import) talk to
// a running Crier over HTTP: cli/client.ts; so does `crier mcp`, an
// MCP server on stdio for AI agents (mcp/stdio.ts). Only the half a
// command needs is imported, so a client command never loads the server (Fastify, the database
// driver, the networks) and starts in a fraction of the time.
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { isClientCommand } from './cli/usage.ts';

/** An optional `.env` in the working directory; variables already set in the environment win. */
function loadDotEnv(): void {
  if (!existsSync('.env')) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync('.env', 'utf8')))) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
}

loadDotEnv();
const argv = process.argv.slice(2);
if (argv[0] === 'mcp') {
  // Loaded only for this command: the MCP SDK stays out of every other process (lazy.ts).
  const { runMcpStdio } = await import('./mcp/stdio.ts');
  process.exit(await runMcpStdio());
} else if (isClientCommand(argv[0])) {
  const { runClient } = await import('./cli/client.ts');
  process.exit(await runClient(argv[0]!, argv.slice(1)));
} else {
  const { runOperator } = await import('./cli/operator.ts');
  await runOperator(argv);
}
