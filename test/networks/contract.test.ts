// The network contract (src/networks/contract.ts), checked two ways:
//  (a) nothing outside src/networks/ names a network: every .ts file under src/ is parsed with the
//      TypeScript compiler and its string literals and identifiers are looked at (comments are not);
//  (b) one suite run for each registered network: what any network object must satisfy.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { loadConfig } from '../../src/config.ts';
import { verifyLazyShape } from '../../src/networks/lazy-capabilities.ts';
import { NETWORK_LIST, createNetworkRegistry, networkFor } from '../../src/networks/registry.ts';
import { NETWORKS } from '../../src/networks/ids.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import type { PostContent, TargetContext } from '../../src/core/post.ts';
import { ajv } from '../../src/validation/ajv.ts';

/** The networks that publish today; the network issues add the others. */
/** The networks that publish so far; the others answer "not available yet". */
const PUBLISHING = new Set(['x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube', 'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit', 'telegram', 'mastodon', 'discord']);
/**
 * Per network, the capabilities (capabilities.ts) it declares, each with the test file proving it
 * against the network's emulator (the engagement ones come with the engagement issue).
 */
const TESTED_CAPABILITIES: Partial<Record<NetworkId, Record<string, string>>> = {
  x: { remove: 'test/networks/x/engagement.test.ts', ownPosts: 'test/networks/x/engagement.test.ts', comments: 'test/networks/x/engagement.test.ts', analytics: 'test/networks/x/engagement.test.ts' },
  threads: { remove: 'test/networks/threads/remove.test.ts', ownPosts: 'test/networks/threads/own-posts.test.ts', comments: 'test/networks/threads/comments.test.ts', analytics: 'test/networks/threads/analytics.test.ts', inbound: 'test/networks/threads/inbound.test.ts' },
  linkedin: { remove: 'test/networks/linkedin/engagement.test.ts', ownPosts: 'test/networks/linkedin/engagement.test.ts', comments: 'test/networks/linkedin/engagement.test.ts', analytics: 'test/networks/linkedin/engagement.test.ts' },
  instagram: { remove: 'test/networks/instagram/engagement.test.ts', ownPosts: 'test/networks/instagram/engagement.test.ts', comments: 'test/networks/instagram/engagement.test.ts', analytics: 'test/networks/instagram/engagement.test.ts', inbound: 'test/inbound/inbound.test.ts', messages: 'test/conversations/messages.test.ts' },
  youtube: { remove: 'test/networks/youtube/engagement.test.ts', ownPosts: 'test/networks/youtube/engagement.test.ts', comments: 'test/networks/youtube/engagement.test.ts', analytics: 'test/networks/youtube/engagement.test.ts' },
  bluesky: { remove: 'test/networks/bluesky/engagement.test.ts', ownPosts: 'test/networks/bluesky/engagement.test.ts', comments: 'test/networks/bluesky/engagement.test.ts', analytics: 'test/networks/bluesky/engagement.test.ts' },
  facebook: { remove: 'test/networks/facebook/engagement.test.ts', ownPosts: 'test/networks/facebook/engagement.test.ts', comments: 'test/networks/facebook/engagement.test.ts', analytics: 'test/networks/facebook/engagement.test.ts' },
  tiktok: { ownPosts: 'test/networks/tiktok/engagement.test.ts', analytics: 'test/networks/tiktok/engagement.test.ts', preview: 'test/networks/tiktok/dry-run.test.ts' },
  google_business: { remove: 'test/networks/google_business/engagement.test.ts', ownPosts: 'test/networks/google_business/engagement.test.ts', analytics: 'test/networks/google_business/engagement.test.ts' },
  pinterest: { listings: 'test/networks/pinterest/boards.test.ts', remove: 'test/networks/pinterest/engagement.test.ts', ownPosts: 'test/networks/pinterest/engagement.test.ts', analytics: 'test/networks/pinterest/engagement.test.ts' },
  vimeo: { remove: 'test/networks/vimeo/engagement.test.ts', ownPosts: 'test/networks/vimeo/engagement.test.ts', comments: 'test/networks/vimeo/engagement.test.ts', analytics: 'test/networks/vimeo/engagement.test.ts' },
  reddit: { listings: 'test/networks/reddit/flairs.test.ts', remove: 'test/networks/reddit/engagement.test.ts', ownPosts: 'test/networks/reddit/engagement.test.ts', comments: 'test/networks/reddit/engagement.test.ts', analytics: 'test/networks/reddit/engagement.test.ts' },
  telegram: { remove: 'test/networks/telegram/remove.test.ts', edit: 'test/networks/telegram/edit.test.ts' },
  mastodon: { remove: 'test/networks/mastodon/remove.test.ts', comments: 'test/networks/mastodon/engagement.test.ts', analytics: 'test/networks/mastodon/engagement.test.ts', ownPosts: 'test/networks/mastodon/engagement.test.ts', edit: 'test/networks/mastodon/edit.test.ts' },
  discord: { remove: 'test/networks/discord/remove.test.ts', edit: 'test/networks/discord/edit.test.ts' },
};

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * Strings outside src/networks/ that may contain a network's name: user-facing examples in messages
 * and documentation, never a branch. Each entry: the file, and a piece of the one literal it allows.
 */
const ALLOWED_MENTIONS: { file: string; literal: string; why: string }[] = [
  { file: 'http/routes/social-networks.ts', literal: 'for facebook, instagram, linkedin and google_business', why: 'the OpenAPI description of auth-url, listing which networks answer with a session' },
  { file: 'cli/operator.ts', literal: 'for facebook, instagram,', why: 'the sandbox guide printed at start' },
  { file: 'cli/operator.ts', literal: 'linkedin and google_business, a session', why: 'the sandbox guide printed at start' },
  { file: 'cli/operator.ts', literal: '/v1/social-networks/linkedin/auth-url', why: 'the sandbox guide\'s example command' },
];

/** Identifiers that only look like a network's name. */
const ALLOWED_IDENTIFIERS = new Set(['X_OK']); // node:fs access mode (db/embedded.ts)

/** Words that name a network inside an identifier (camelCase or snake_case parts). */
const NAME_WORDS = new Set(['threads', 'linkedin', 'instagram', 'bluesky', 'bsky', 'youtube', 'facebook', 'tiktok', 'pinterest', 'vimeo', 'reddit', 'google', 'telegram', 'discord']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(SRC, 'networks') ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const words = (identifier: string) => identifier.split(/_|(?<=[a-z0-9])(?=[A-Z])/).map((word) => word.toLowerCase());

/** What in `text` (a .ts file) names a network: string literals equal to an id or naming one, identifiers made of a network's name. */
export function networkMentions(file: string, text: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const ids = new Set<string>(NETWORKS);
  const mentionsId = (literal: string) => NETWORKS.some((id) => new RegExp(`(^|[^A-Za-z0-9_-])${id}([^A-Za-z0-9_-]|$)`).test(literal) && id !== 'x');
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const literal = node.text;
      const allowed = ALLOWED_MENTIONS.some((a) => file.endsWith(a.file) && literal.includes(a.literal));
      // A whole literal equal to an id is the network; a piece of a template is judged by its words
      // (`${width}x${height}` is a size). 'x' inside a sentence is too common a letter to judge, but
      // not as a path segment or quoted.
      const whole = ts.isStringLiteralLike(node) && ids.has(literal);
      if (!allowed && (whole || mentionsId(literal) || /(^|[^A-Za-z0-9_-])x\/|"x"/.test(literal))) found.push(`literal ${JSON.stringify(literal)}`);
    } else if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && !ALLOWED_IDENTIFIERS.has(node.text)) {
      const parts = words(node.text);
      const named = parts.some((word) => NAME_WORDS.has(word)) || (parts.length > 1 && parts[0] === 'x');
      if (named) found.push(`identifier ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('nothing outside src/networks/ names a network', () => {
  test('the check finds what it looks for (it can fail)', () => {
    const branch = "if (network === 'bluesky') throw new Error('app password');\nconst xApiUrl = config.networks.blueskyService;\n// a comment about linkedin is fine\n";
    assert.deepEqual(networkMentions('src/example.ts', branch), ['literal "bluesky"', 'identifier xApiUrl', 'identifier blueskyService']);
    assert.deepEqual(networkMentions('src/example.ts', "switch (n) { case 'x': break; case 'google_business': break; }"), ['literal "x"', 'literal "google_business"']);
    assert.deepEqual(networkMentions('src/example.ts', 'const url = `${base}/v1/social-accounts/bluesky`;'), ['literal "/v1/social-accounts/bluesky"']);
    assert.deepEqual(networkMentions('src/example.ts', "const header = 'x-request-id'; const SQL = 'WITH x AS (SELECT 1) SELECT * FROM x'; const size = `${w}x${h}`;"), []);
  });

  test('no .ts file under src/ outside src/networks/ does', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 50, `only ${files.length} files found`);
    const offenders = files.flatMap((file) => networkMentions(file, readFileSync(file, 'utf8')).map((what) => `${path.relative(SRC, file)}: ${what}`));
    assert.deepEqual(offenders, []);
  });
});

const empty: PostContent = { containers: [{ content: '', media: [] }], blocks: {} };
const config = loadConfig({}, NETWORK_LIST);
const registry = createNetworkRegistry(config);

/** Blocks that exercise a network's video-profile variants: none, empty, and each boolean field set. */
function sampleBlocks(schema: { properties?: Record<string, { type?: string }> }): (Record<string, unknown> | undefined)[] {
  const booleans = Object.entries(schema.properties ?? {}).filter(([, field]) => field.type === 'boolean').map(([name]) => name);
  return [undefined, {}, ...booleans.map((name) => ({ [name]: true }))];
}

test('the registry lists every network once, in NETWORKS order', () => {
  assert.deepEqual(NETWORK_LIST.map((network) => network.id), [...NETWORKS]);
  assert.deepEqual(registry.all.map((network) => network.id), [...NETWORKS]);
});

test('video profile keys and ids are unique across networks', () => {
  const keys = NETWORK_LIST.flatMap((network) => Object.keys(network.media.profiles));
  const ids = NETWORK_LIST.flatMap((network) => Object.values(network.media.profiles).map((profile) => profile.id));
  assert.equal(new Set(keys).size, keys.length, `duplicate keys: ${keys}`);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids}`);
});

for (const id of NETWORKS) {
  describe(`network contract: ${id}`, () => {
    const network = networkFor(id);

    test('it is the object its folder exports, under its own id', async () => {
      const folder = await import(`../../src/networks/${id}/index.ts`);
      assert.ok(Object.values(folder).includes(network), `src/networks/${id}/index.ts does not export the registered object`);
      assert.equal(network.id, id);
      assert.equal(network.options.network, id);
      assert.ok(network.label.trim().length > 0);
    });

    test('its block schema compiles with Ajv (the one validation/ajv.ts configures) and judges an empty block', () => {
      assert.equal((network.options.schema as { type?: string }).type, 'object');
      const validate = ajv.compile(network.options.schema);
      // Networks whose block has required fields refuse {}: that is the schema working, not failing.
      const required = (network.options.schema as { required?: string[] }).required ?? [];
      assert.equal(validate({}), required.length === 0, JSON.stringify(validate.errors));
    });

    test('its rules are functions that run on an empty post without throwing', () => {
      const ctx: TargetContext = { ...empty, targetNetworks: new Set<NetworkId>([id]) };
      assert.equal(typeof network.options.blockRules, 'function');
      assert.equal(typeof network.options.targetRules, 'function');
      assert.ok(Array.isArray(network.options.blockRules({}, empty)));
      assert.ok(Array.isArray(network.options.targetRules(undefined, ctx)));
      assert.ok(Array.isArray(network.options.targetRules({}, ctx)));
    });

    test('its media rules are coherent', () => {
      assert.ok(['upload', 'public_url'].includes(network.media.delivery));
      const own = Object.values(network.media.profiles);
      for (const profile of own) assert.match(profile.id, /@\d+$/, `${profile.id} carries no version`);
      for (const block of sampleBlocks(network.options.schema)) {
        const chosen = network.media.videoProfile(block);
        assert.ok(chosen === undefined || own.includes(chosen), `${JSON.stringify(block)} chose a profile that is not ${id}'s`);
      }
    });

    test('how it connects matches what the registry builds', () => {
      const provider = registry.oauthProviders()[id];
      if (network.connect.kind === 'oauth') {
        assert.equal(typeof network.connect.oauth, 'function');
        assert.equal(provider?.network, id);
        assert.equal(registry.passwordLogin(id), undefined);
      } else {
        assert.equal(network.connect.kind, 'password');
        assert.equal(typeof registry.passwordLogin(id), 'function');
        // A credential network may offer OAuth too, and then only with an app Crier registers on each
        // server itself (`instances`): no org or managed app, so no CRIER_<NETWORK>_CLIENT_ID.
        if (network.connect.oauth) {
          assert.equal(provider?.network, id);
          assert.equal(typeof provider?.instances?.register, 'function', `${id} offers OAuth beside credentials without instances`);
          assert.equal(provider?.refresh, undefined);
          assert.ok(!config.managedApps || !(id in config.managedApps));
        } else assert.equal(provider, undefined);
      }
      if (network.connect.kind === 'oauth') assert.equal(provider?.instances, undefined, `${id}: servers of its own are for credential networks offering OAuth`);
    });

    test('it publishes exactly when it is listed in PUBLISHING, and the adapter is its own', () => {
      const adapter = registry.adapters()[id];
      assert.equal(network.publisher !== undefined, PUBLISHING.has(id));
      assert.equal(adapter?.network, network.publisher ? id : undefined);
    });

    test('capabilities loaded on first use are exactly those it declares at start', async () => {
      assert.deepEqual(await verifyLazyShape(registry.capabilities(id)), []);
    });

    test('limits, capabilities, configuration and sandbox are declared sensibly', () => {
      const quota = network.limits.accountQuota;
      for (const value of [network.limits.concurrency, quota?.max, quota?.windowMs]) {
        assert.ok(value === undefined || (Number.isInteger(value) && value > 0), `limit ${value}`);
      }
      if (quota) assert.ok(['posts', 'containers'].includes(quota.counts));
      // A capability is declared once it works, with its tests named here (none yet).
      assert.deepEqual(Object.keys(registry.capabilities(id)).sort(), Object.keys(TESTED_CAPABILITIES[id] ?? {}).sort());
      for (const file of Object.values(TESTED_CAPABILITIES[id] ?? {})) assert.ok(existsSync(file), `${id}: ${file} is missing`);
      assert.ok(network.config.variables.length > 0);
      for (const name of network.config.variables) assert.match(name, /^CRIER_[A-Z_]+$/);
      assert.notEqual(config.networks[id], undefined, 'loadConfig read its settings');
      const env = network.sandbox!.env('http://127.0.0.1:9');
      for (const name of Object.keys(env)) assert.ok(network.config.variables.includes(name), `the sandbox sets ${name}, which ${id} does not read`);
      assert.equal(typeof network.sandbox!.emulator.start, 'function');
    });
  });
}

describe('the networks read their variables through loadConfig, as before the registry', () => {
  test('defaults: X and Bluesky have their own hosts, every other network its real hosts unless CRIER_<NETWORK>_BASE_URL is set', () => {
    const settings = loadConfig({}, NETWORK_LIST).networks;
    assert.deepEqual(settings.x, { apiUrl: 'https://api.x.com', authorizeUrl: 'https://x.com/i/oauth2/authorize' });
    assert.deepEqual(settings.bluesky, { service: 'https://bsky.social' });
    for (const id of NETWORKS.filter((id) => id !== 'x' && id !== 'bluesky' && id !== 'tiktok' && id !== 'youtube')) assert.deepEqual(settings[id], { baseUrl: undefined }, id);
    // YouTube also reads its upload chunk size and its managed-key pool (src/networks/youtube/settings.ts).
    assert.equal((settings.youtube as { baseUrl?: string }).baseUrl, undefined);
    assert.deepEqual(settings.tiktok, { baseUrl: undefined, creatorCap: 5, statusPollMs: 5000 });
    const pointed = loadConfig({ CRIER_GOOGLE_BUSINESS_BASE_URL: 'http://127.0.0.1:4000/', CRIER_X_API_URL: 'http://127.0.0.1:4001//' }, NETWORK_LIST).networks;
    assert.deepEqual(pointed.google_business, { baseUrl: 'http://127.0.0.1:4000' });
    assert.deepEqual(pointed.x, { apiUrl: 'http://127.0.0.1:4001', authorizeUrl: 'https://x.com/i/oauth2/authorize' });
  });

  test('a bad URL stops the start with the variable named, alongside the other problems', () => {
    assert.throws(() => loadConfig({ CRIER_BLUESKY_SERVICE: 'ftp://pds.example', CRIER_LINKEDIN_BASE_URL: 'not a url', PORT: 'many' }, NETWORK_LIST), (error: Error) => {
      assert.match(error.message, /PORT must be an integer from 0 to 65535, got "many"/);
      assert.match(error.message, /CRIER_BLUESKY_SERVICE must be an http\(s\) URL, got "ftp:\/\/pds\.example"/);
      assert.match(error.message, /CRIER_LINKEDIN_BASE_URL must be an http\(s\) URL, got "not a url"/);
      return true;
    });
  });
});
