// What a newcomer meets in a fresh checkout (issue 33): the commands Crier and the README print work
// as typed (`npx crier …`, since nothing puts `crier` on the PATH), the usage describes the sandbox
// as it is, the licence package.json names is there, and the Docker image's health check asks a
// route Crier serves, as a user other than root.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import { CHECKOUT, runInCheckout } from '../helpers/checkout.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const read = (file: string) => readFileSync(path.join(CHECKOUT, file), 'utf8');

test('`npx crier help` works as typed in a checkout, and the usage says to type it so', async () => {
  const res = await runInCheckout('npx crier help');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^Usage: npx crier <command>/);
});

test('the usage names every network the sandbox emulates, by its label, and how many there are', async () => {
  const res = await runInCheckout('npx crier help');
  const usage = res.stdout.replace(/\s+/g, ' ');
  const sandboxed = NETWORK_LIST.filter((network) => network.sandbox);
  assert.equal(sandboxed.length, 15, 'every network has an emulator');
  assert.match(usage, /--sandbox also runs emulators of fifteen networks inside Crier/);
  for (const network of sandboxed) assert.ok(usage.includes(network.label), `${network.label} is named`);
  assert.doesNotMatch(usage, /five|Facebook Page, Instagram and Bluesky/);
  const described = res.stdout.split('\n').filter((line) => line.startsWith(' '.repeat(24)));
  assert.ok(described.length && described.every((line) => line.length <= 100), 'the description is wrapped to fit a terminal');
});

/**
 * The commands the README shows: each line of its shell blocks, and each inline code span. One
 * starting with a bare `crier` fails in a checkout (command not found).
 */
function readmeCommands(readme: string): string[] {
  const blocks = [...readme.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap((block) => block[1]!.split('\n'));
  const spans = [...readme.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((span) => span[1]!);
  return [...blocks, ...spans].map((text) => text.trim());
}

test('every `crier` command the README shows is typed with npx, so that it works in a checkout', () => {
  const commands = readmeCommands(read('README.md'));
  assert.ok(commands.some((command) => command.startsWith('npx crier key create')), 'the README shows commands');
  assert.deepEqual(commands.filter((command) => /^crier\s/.test(command) || /[#;&|]\s*crier\s/.test(command)), []);
});

test('the README asks for the Node versions package.json accepts, and says how to get one', () => {
  const readme = read('README.md');
  const engines = JSON.parse(read('package.json')).engines.node;
  assert.equal(engines, '>=22.18');
  assert.match(readme, /Node\.js 22\.18 or newer/);
  assert.doesNotMatch(readme, /needs Node 24/);
  assert.match(readme, /nvm install 24/);
  assert.match(readme, /npx -y node@24 bin\/crier\.js/);
});

test("the README carries no stale test figures: the suite's size and time come with the date and machine they were measured on", () => {
  const readme = read('README.md');
  assert.doesNotMatch(readme, /about 2,200 tests|8 min 33 s|<!-- figures/);
  assert.match(readme, /\| `npm test` \| the suite: [\d,]+ tests in \d+ min \d+ s on the [^|]*machine \(\d{4}-\d{2}-\d{2}[^|]*\) \|/);
});

test('the MIT licence package.json names is in the checkout', () => {
  assert.equal(JSON.parse(read('package.json')).license, 'MIT');
  const licence = read('LICENSE');
  assert.match(licence, /^MIT License\n\nCopyright \(c\) 2026 Crier contributors\n/);
  assert.match(licence, /Permission is hereby granted, free of charge, to any person obtaining a copy/);
  assert.match(licence, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

/** The Dockerfile's instructions, continuation lines joined. */
function dockerfile(): { instruction: string; args: string }[] {
  return read('Dockerfile').replace(/\\\n/g, ' ').split('\n').filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [instruction, ...args] = line.trim().split(/\s+/);
      return { instruction: instruction!.toUpperCase(), args: args.join(' ') };
    });
}

test('the Docker image runs Crier as a user other than root', () => {
  const steps = dockerfile();
  const users = steps.filter((step) => step.instruction === 'USER');
  assert.ok(users.length, 'a USER instruction');
  assert.doesNotMatch(users.at(-1)!.args, /^(root|0)(:|$)/);
  const cmd = steps.findIndex((step) => step.instruction === 'CMD');
  assert.ok(steps.findIndex((step) => step === users.at(-1)) < cmd, 'the user is set before the command runs');
  // The data directory is that user's: the embedded PostgreSQL writes there.
  assert.ok(steps.some((step) => step.instruction === 'RUN' && /chown node:node \/data/.test(step.args)));
});

describeHealthcheck();

/** The HEALTHCHECK's command, run as Docker would, against a started Crier and against nothing. */
function describeHealthcheck(): void {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const healthcheck = () => {
    const step = dockerfile().find((s) => s.instruction === 'HEALTHCHECK');
    assert.ok(step, 'a HEALTHCHECK instruction');
    const [, command] = step.args.match(/\bCMD (.+)$/)!;
    return command!;
  };

  test('the Docker HEALTHCHECK succeeds against a running Crier', async () => {
    const res = await runInCheckout(healthcheck(), { PORT: new URL(server.url).port });
    assert.equal(res.code, 0, res.stderr);
  });

  test('the Docker HEALTHCHECK fails where no Crier answers, and asks a route Crier serves', async () => {
    const command = healthcheck();
    const [, route] = command.match(/'(\/\w+)'/)!;
    assert.equal((await fetch(server.url + route)).status, 200, `${route} is served`);
    const closed = await runInCheckout(command, { PORT: '1' });
    assert.notEqual(closed.code, 0);
  });
}
