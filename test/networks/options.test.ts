// Runs every platform-block contract case through the create pipeline without a server (parse and
// schema-validate the body, then the platform rules for the case's targets, exactly as POST /v1/posts
// does after resolving accounts), so the table and every network's options file are checked against each
// other in milliseconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockCases, type BlockCase } from '../posts/platform-blocks.cases.ts';
import { networkFor } from '../../src/networks/registry.ts';
import { mediaKind } from '../../src/networks/media-kind.ts';
import { threadsLength } from '../../src/networks/threads/options.ts';
import { NETWORKS } from '../../src/networks/ids.ts';
import type { MediaInput, TargetContext } from '../../src/core/post.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import { type FieldIssue } from '../../src/core/errors.ts';
import { checkPlatformRules, parseCreateBody } from '../../src/posts/validate.ts';
import { STRICT_FETCH_POLICY } from '../../src/validation/fetched-url.ts';

type RawContainer = { content?: string; media?: MediaInput[] };

function run(testCase: BlockCase): FieldIssue[] {
  const parsed = parseCreateBody({ ...testCase.body, accounts: ['resolved-by-the-case'] }, new Date(), STRICT_FETCH_POLICY);
  if (!parsed.ok) return parsed.details;
  return checkPlatformRules(parsed.request, new Set(testCase.networks));
}

test('case table is well formed', () => {
  const names = new Set<string>();
  for (const c of blockCases) {
    assert.ok(!names.has(c.name), `duplicate case name: ${c.name}`);
    names.add(c.name);
    assert.ok(c.networks.length > 0, `${c.name}: targets no network`);
    assert.ok('content' in c.body || 'containers' in c.body, `${c.name}: body needs content or containers`);
    for (const container of (c.body.containers as RawContainer[] | undefined) ?? []) {
      for (const m of container.media ?? []) {
        // Refused cases may carry an unfetchable URL on purpose; accepted ones must be publishable.
        if (c.expect.status !== 200) continue;
        assert.match(m.url, /^https:\/\//, `${c.name}: media URLs must be https`);
        assert.ok(m.url.endsWith(`/${m.filename}`), `${c.name}: media filename should match its URL`);
      }
    }
    if (c.expect.status === 400) assert.ok(c.expect.fields.length > 0, `${c.name}: a 400 case must list fields`);
  }
  assert.ok(blockCases.length >= 120, `only ${blockCases.length} cases`);
});

for (const c of blockCases) {
  test(c.name, () => {
    const issues = run(c);
    const fields = issues.map((i) => i.field);
    if (c.expect.status === 200) {
      assert.deepEqual(issues, [], 'expected no issues');
    } else {
      for (const field of c.expect.fields) {
        assert.ok(fields.includes(field), `expected an issue on ${field}, got ${JSON.stringify(issues)}`);
      }
    }
    for (const i of issues) assert.ok(i.message.length > 10, `issue on ${i.field} needs a real message`);
  });
}

test('every network has options registered under its own id', () => {
  for (const network of NETWORKS) assert.equal(networkFor(network).options.network, network);
});

test('media kind comes from the filename extension, case-insensitively', () => {
  const kinds: Record<string, string> = {
    'a.jpg': 'image', 'a.JPEG': 'image', 'a.png': 'image', 'a.gif': 'image', 'a.webp': 'image', 'a.heic': 'image',
    'v.mp4': 'video', 'v.MOV': 'video', 'v.m4v': 'video', 'v.webm': 'video',
    'doc.pdf': 'other', 'noextension': 'other', 'archive.tar.gz': 'other', 'mp4': 'other',
  };
  for (const [filename, kind] of Object.entries(kinds)) assert.equal(mediaKind(filename), kind, filename);
});

test('threads counts graphemes, with emoji as their UTF-8 byte length', () => {
  assert.equal(threadsLength('hello'), 5);
  assert.equal(threadsLength('é'), 1);          // precomposed
  assert.equal(threadsLength('e\u0301'), 1);    // combining accent: one grapheme
  assert.equal(threadsLength('日本'), 2);
  assert.equal(threadsLength('😀'), 4);
  assert.equal(threadsLength('👍🏽'), 8);
  assert.equal(threadsLength('👩‍👩‍👧'), 18);
  assert.equal(threadsLength('🇫🇷'), 8);
  assert.equal(threadsLength('❤️'), 6);
});

// A target rule must cope with "no block" for every network, since it runs whenever the network is targeted.
test('every target rule accepts a missing block', () => {
  const ctx: TargetContext = { containers: [{ content: 'Hi', media: [] }], targetNetworks: new Set<NetworkId>(NETWORKS), blocks: {} };
  for (const network of NETWORKS) assert.doesNotThrow(() => networkFor(network).options.targetRules(undefined, ctx), network);
});
