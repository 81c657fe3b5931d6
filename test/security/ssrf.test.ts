// The SSRF guard, against a real local HTTPS server: which URLs are refused (and that refused ones are
// never dialled), what loopback-allowed test mode still refuses, redirects, size and time caps, and
// the one URL let through in the sandbox: Crier's own webhook inbox.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { classifyAddress } from '../../src/security/ip-ranges.ts';
import { checkUrl, createGuardedClient, guardedFetch, SsrfError, type SsrfErrorCode } from '../../src/security/ssrf.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';

async function rejectsWith(promise: Promise<unknown>, code: SsrfErrorCode): Promise<SsrfError> {
  const error = await promise.then(
    () => assert.fail(`expected SsrfError(${code}), got a response`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SsrfError, `expected SsrfError(${code}), got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// Every spelling of an address that must never be reached. `{port}` is the local server's port, so a
// loopback form that slipped through would be seen by the server.
const BLOCKED: Array<[string, string]> = [
  ['loopback', 'https://127.0.0.1:{port}/'],
  ['loopback, other /8 address', 'https://127.255.0.9:{port}/'],
  ['loopback, short form', 'https://127.1:{port}/'],
  ['loopback, decimal', 'https://2130706433:{port}/'],
  ['loopback, hex', 'https://0x7f.0.0.1:{port}/'],
  ['loopback, single hex', 'https://0x7f000001:{port}/'],
  ['loopback, octal', 'https://0177.0.0.1:{port}/'],
  ['loopback, trailing dot', 'https://127.0.0.1.:{port}/'],
  ['IPv6 loopback', 'https://[::1]:{port}/'],
  ['IPv6 loopback, long form', 'https://[0:0:0:0:0:0:0:1]:{port}/'],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]:{port}/'],
  ['IPv4-mapped loopback, hex', 'https://[::ffff:7f00:1]:{port}/'],
  ['IPv4-compatible loopback', 'https://[::127.0.0.1]:{port}/'],
  ['NAT64 loopback', 'https://[64:ff9b::7f00:1]:{port}/'],
  ['6to4 loopback', 'https://[2002:7f00:1::1]:{port}/'],
  ['this network', 'https://0.0.0.0:{port}/'],
  ['this network, zero', 'https://0:{port}/'],
  ['IPv6 unspecified', 'https://[::]:{port}/'],
  ['private 10/8', 'https://10.0.0.1/'],
  ['private 172.16/12', 'https://172.16.0.1/'],
  ['private 172.16/12 top', 'https://172.31.255.255/'],
  ['private 192.168/16', 'https://192.168.1.1/'],
  ['private, decimal', 'https://3232235777/'],
  ['CGNAT', 'https://100.64.0.1/'],
  ['CGNAT top', 'https://100.127.255.254/'],
  ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
  ['cloud metadata, hex', 'https://0xa9.0xfe.0xa9.0xfe/'],
  ['cloud metadata, decimal', 'https://2852039166/'],
  ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/'],
  ['IPv4-mapped private', 'https://[::ffff:a00:1]/'],
  ['IPv4-compatible metadata', 'https://[::a9fe:a9fe]/'],
  ['NAT64 metadata', 'https://[64:ff9b::169.254.169.254]/'],
  ['NAT64 private', 'https://[64:ff9b::c0a8:101]/'],
  ['6to4 private', 'https://[2002:c0a8:101::1]/'],
  ['6to4 metadata', 'https://[2002:a9fe:a9fe::]/'],
  ['IPv6 link-local', 'https://[fe80::1]/'],
  ['IPv6 ULA fc', 'https://[fc00::1]/'],
  ['IPv6 ULA fd', 'https://[fd12:3456:789a::1]/'],
  ['IPv6 multicast', 'https://[ff02::1]/'],
  ['multicast', 'https://224.0.0.1/'],
  ['multicast SSDP', 'https://239.255.255.250/'],
  ['reserved 240/4', 'https://240.0.0.1/'],
  ['broadcast', 'https://255.255.255.255/'],
  ['documentation', 'https://192.0.2.10/'],
];

// Forms the URL parser itself refuses.
const UNPARSABLE = [
  'https://256.0.0.1/',
  'https://0x100000000/',
  'https://127.0.0.1.1.1/',
  'https://[fe80::1%25eth0]/',
  'https://[::ffff:127.0.0.1.]/',
  'not a url',
  '/relative/path',
];

describe('address classification', () => {
  const cases: Array<[string, string]> = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['169.255.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2002:808:808::1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['fd00::1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'link_local'],
    ['fe80::abcd%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff05::2', 'multicast'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
    ['::ffff:0:7f00:1', 'reserved'], // SIIT form: not global unicast
    ['64:ff9b:1::a00:1', 'reserved'], // local-use NAT64
    ['example.com', 'invalid'],
  ];
  for (const [address, expected] of cases) {
    test(`${address} is ${expected}`, () => assert.equal(classifyAddress(address), expected));
  }
});

describe('guarded client: refused before any connection', () => {
  let server: TestHttpsServer;
  before(async () => {
    server = await startHttpsServer();
    server.route('/', (_req, res) => res.end('reached'));
  });
  after(() => server.close());

  const urlFor = (template: string) => template.replace('{port}', String(server.port));

  for (const allowLoopback of [false, true]) {
    describe(allowLoopback ? 'with allowLoopback (still refused)' : 'default', () => {
      const cases = allowLoopback ? BLOCKED.filter(([name]) => !name.includes('loopback')) : BLOCKED;
      for (const [name, template] of cases) {
        test(`${name}: ${template}`, async () => {
          const client = createGuardedClient({ allowLoopback, ca: server.ca, timeoutMs: 20_000 });
          try {
            const took = await elapsed(() => rejectsWith(client.fetch(urlFor(template)), 'blocked_address'));
            // Refused by the check, not after a connect attempt ran into the 20 s deadline.
            assert.ok(took < 1000, `took ${took} ms`);
            await rejectsWith(checkUrl(urlFor(template), { allowLoopback }), 'blocked_address');
          } finally {
            await client.close();
          }
          assert.equal(server.connections, 0);
          assert.deepEqual(server.requests, []);
        });
      }
    });
  }

  for (const url of UNPARSABLE) {
    test(`unparsable: ${url}`, async () => {
      const client = createGuardedClient();
      await rejectsWith(client.fetch(url), 'invalid_url');
      await rejectsWith(checkUrl(url), 'invalid_url');
      await client.close();
    });
  }

  test('http:// is refused, even to a loopback-allowed address', async () => {
    const client = createGuardedClient({ allowLoopback: true, ca: server.ca });
    await rejectsWith(client.fetch(`http://127.0.0.1:${server.port}/`), 'not_https');
    await rejectsWith(client.fetch('http://example.com/'), 'not_https');
    await rejectsWith(client.fetch('ftp://example.com/'), 'not_https');
    await rejectsWith(client.fetch('file:///etc/passwd'), 'not_https');
    await rejectsWith(checkUrl('http://example.com/'), 'not_https');
    await client.close();
    assert.equal(server.connections, 0);
  });

  test('credentials in the URL are refused', async () => {
    const client = createGuardedClient({ allowLoopback: true, ca: server.ca });
    await rejectsWith(client.fetch(`https://user:pw@127.0.0.1:${server.port}/`), 'credentials_in_url');
    await rejectsWith(client.fetch(`https://user@127.0.0.1:${server.port}/`), 'credentials_in_url');
    await rejectsWith(checkUrl('https://user:pw@example.com/'), 'credentials_in_url');
    await client.close();
    assert.equal(server.connections, 0);
  });

  test('a name that resolves to loopback (localhost) is refused at connect time', async () => {
    const client = createGuardedClient({ ca: server.ca, timeoutMs: 20_000 });
    const took = await elapsed(() => rejectsWith(client.fetch(`https://localhost:${server.port}/`), 'blocked_address'));
    assert.ok(took < 1000, `took ${took} ms`);
    await client.close();
    await rejectsWith(checkUrl(`https://localhost:${server.port}/`), 'blocked_address');
    assert.equal(server.connections, 0);
    assert.deepEqual(server.requests, []);
  });
});

describe('checkUrl', () => {
  test('accepts a public literal and, in test mode, localhost', async () => {
    await checkUrl('https://8.8.8.8/image.png');
    await checkUrl('https://[2606:4700:4700::1111]/');
    await checkUrl('https://localhost/', { allowLoopback: true });
  });

  test('a name that does not resolve is a dns_failure, when saved and when fetched', async () => {
    await rejectsWith(checkUrl('https://no-such-host.invalid/'), 'dns_failure');
    const client = createGuardedClient();
    await rejectsWith(client.fetch('https://no-such-host.invalid/'), 'dns_failure');
    await client.close();
  });
});

describe('guarded client against a local server (allowLoopback)', () => {
  let server: TestHttpsServer;
  let client: ReturnType<typeof createGuardedClient>;
  before(async () => {
    server = await startHttpsServer();
    client = createGuardedClient({ allowLoopback: true, ca: server.ca, timeoutMs: 5_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  test('GET returns status, headers, body and final URL', async () => {
    server.route('/hello', (_req, res) => res.writeHead(201, { 'x-test': 'yes', 'set-cookie': ['a=1', 'b=2'] }).end('hi there'));
    const response = await client.fetch(`${server.url}/hello?x=1`);
    assert.equal(response.status, 201);
    assert.equal(response.body.toString(), 'hi there');
    assert.equal(response.headers.get('x-test'), 'yes');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.equal(response.url, `${server.url}/hello?x=1`);
    assert.equal(server.requests[0]?.path, '/hello?x=1');
  });

  test('POST sends method, headers and body', async () => {
    server.route('/hook', (_req, res) => res.end('ok'));
    const response = await client.fetch(`${server.url}/hook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sig': 'abc' }, body: '{"a":1}' });
    assert.equal(response.status, 200);
    const [received] = server.requests;
    assert.equal(received?.method, 'POST');
    assert.equal(received?.headers['x-sig'], 'abc');
    assert.equal(received?.body.toString(), '{"a":1}');
  });

  test('a name resolving to loopback works through the connect-time lookup', async () => {
    server.route('/named', (_req, res) => res.end('via localhost'));
    const response = await client.fetch(`https://localhost:${server.port}/named`);
    assert.equal(response.body.toString(), 'via localhost');
  });

  test('the self-signed certificate is not trusted without ca', async () => {
    const untrusting = createGuardedClient({ allowLoopback: true });
    await rejectsWith(untrusting.fetch(`${server.url}/hello`), 'connect_failed');
    await untrusting.close();
  });

  test('as a standard fetch (for client libraries): a Request goes out whole, the answer comes back as a Response', async () => {
    server.route('/xrpc/m', (_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"InvalidRequest"}'));
    const fetchGuarded = guardedFetch(client);
    const response = await fetchGuarded(new Request(`${server.url}/xrpc/m?x=1`, { method: 'POST', headers: { 'x-sig': 'abc' }, body: new Uint8Array([1, 2, 3]) }));
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await response.json(), { error: 'InvalidRequest' });
    const [received] = server.requests;
    assert.deepEqual([received?.method, received?.path, received?.headers['x-sig']], ['POST', '/xrpc/m?x=1', 'abc']);
    assert.deepEqual([...received!.body], [1, 2, 3]);
    await rejectsWith(fetchGuarded(`http://127.0.0.1:${server.port}/xrpc/m`), 'not_https');
    assert.equal(server.requests.length, 1, 'the http URL was not sent');
  });

  test('a closed port is connect_failed', async () => {
    const other = await startHttpsServer();
    await other.close();
    await rejectsWith(client.fetch(`https://127.0.0.1:${other.port}/`), 'connect_failed');
  });

  describe('redirects', () => {
    test('a local hop is followed', async () => {
      server.route('/start', (_req, res) => res.writeHead(302, { location: '/end' }).end());
      server.route('/end', (_req, res) => res.end('arrived'));
      const response = await client.fetch(`${server.url}/start`);
      assert.equal(response.status, 200);
      assert.equal(response.body.toString(), 'arrived');
      assert.equal(response.url, `${server.url}/end`);
      assert.deepEqual(server.requests.map((r) => r.path), ['/start', '/end']);
    });

    test('303 after a POST becomes a bodiless GET; 307 keeps method and body', async () => {
      server.route('/see-other', (_req, res) => res.writeHead(303, { location: '/end' }).end());
      server.route('/temporary', (_req, res) => res.writeHead(307, { location: '/end' }).end());
      await client.fetch(`${server.url}/see-other`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'data' });
      await client.fetch(`${server.url}/temporary`, { method: 'POST', body: 'again' });
      const [, afterSeeOther, , afterTemporary] = server.requests;
      assert.equal(afterSeeOther?.method, 'GET');
      assert.equal(afterSeeOther?.body.length, 0);
      assert.equal(afterSeeOther?.headers['content-type'], undefined);
      assert.equal(afterTemporary?.method, 'POST');
      assert.equal(afterTemporary?.body.toString(), 'again');
    });

    test('credentials are not carried to another origin', async () => {
      server.route('/cross', (_req, res) => res.writeHead(302, { location: `https://localhost:${server.port}/end` }).end());
      await client.fetch(`${server.url}/cross`, { headers: { authorization: 'Bearer secret', 'x-keep': '1' } });
      const [first, second] = server.requests;
      assert.equal(first?.headers.authorization, 'Bearer secret');
      assert.equal(second?.headers.authorization, undefined);
      assert.equal(second?.headers['x-keep'], '1');
    });

    const refusedTargets: Array<[string, string, SsrfErrorCode]> = [
      ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', 'blocked_address'],
      ['private address', 'https://10.0.0.1/', 'blocked_address'],
      ['IPv4-mapped metadata', 'https://[::ffff:a9fe:a9fe]/', 'blocked_address'],
      ['plain http', 'http://127.0.0.1:{port}/end', 'not_https'],
      ['credentials', 'https://u:p@127.0.0.1:{port}/end', 'credentials_in_url'],
      ['unparsable', 'https://[::1/', 'invalid_url'],
    ];
    for (const [name, target, code] of refusedTargets) {
      test(`a redirect to ${name} is refused and never contacted`, async () => {
        server.route('/end', (_req, res) => res.end('should not be reached'));
        server.route('/bad-redirect', (_req, res) => res.writeHead(302, { location: target.replace('{port}', String(server.port)) }).end());
        const took = await elapsed(() => rejectsWith(client.fetch(`${server.url}/bad-redirect`), code));
        assert.ok(took < 1000, `took ${took} ms`);
        assert.deepEqual(server.requests.map((r) => r.path), ['/bad-redirect']);
      });
    }

    test('maxRedirects: 0 refuses any 3xx and never requests its target', async () => {
      const strict = createGuardedClient({ allowLoopback: true, ca: server.ca, maxRedirects: 0 });
      server.route('/moved', (_req, res) => res.writeHead(301, { location: '/end' }).end());
      server.route('/not-modified', (_req, res) => res.writeHead(304).end());
      server.route('/end', (_req, res) => res.end('should not be reached'));
      await rejectsWith(strict.fetch(`${server.url}/moved`, { method: 'POST', body: '{}' }), 'redirect_refused');
      await rejectsWith(strict.fetch(`${server.url}/not-modified`), 'redirect_refused');
      await strict.close();
      assert.deepEqual(server.requests.map((r) => r.path), ['/moved', '/not-modified']);
    });

    test('more hops than maxRedirects is too_many_redirects', async () => {
      const limited = createGuardedClient({ allowLoopback: true, ca: server.ca, maxRedirects: 2 });
      server.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
      await rejectsWith(limited.fetch(`${server.url}/loop`), 'too_many_redirects');
      await limited.close();
      assert.equal(server.requests.length, 3);
    });
  });

  describe('size cap', () => {
    let capped: ReturnType<typeof createGuardedClient>;
    before(() => {
      capped = createGuardedClient({ allowLoopback: true, ca: server.ca, maxBytes: 1000, timeoutMs: 5_000 });
    });
    after(() => capped.close());

    test('a body of exactly the cap is accepted', async () => {
      server.route('/exact', (_req, res) => res.end(Buffer.alloc(1000, 1)));
      const response = await capped.fetch(`${server.url}/exact`);
      assert.equal(response.body.length, 1000);
    });

    test('a Content-Length over the cap is refused before the body is read', async () => {
      // The server declares 1 MB but sends only the headers: only the declared length can refuse it.
      server.route('/declared', (_req, res) => {
        res.writeHead(200, { 'content-length': String(1024 * 1024) });
        res.flushHeaders();
      });
      const took = await elapsed(() => rejectsWith(capped.fetch(`${server.url}/declared`), 'too_large'));
      assert.ok(took < 2000, `took ${took} ms`);
    });

    test('a chunked body is cut off as soon as it exceeds the cap', async () => {
      // 1200 bytes then silence: waiting for the end would run into the timeout instead.
      server.route('/chunked', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(Buffer.alloc(600, 1));
        setTimeout(() => res.write(Buffer.alloc(600, 2)), 20);
      });
      const took = await elapsed(() => rejectsWith(capped.fetch(`${server.url}/chunked`), 'too_large'));
      assert.ok(took < 2000, `took ${took} ms`);
    });
  });

  describe('timeout', () => {
    test('a server that never answers times out at the configured deadline', async () => {
      const quick = createGuardedClient({ allowLoopback: true, ca: server.ca, timeoutMs: 300 });
      server.route('/hang', () => {});
      const took = await elapsed(() => rejectsWith(quick.fetch(`${server.url}/hang`), 'timeout'));
      assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
      await quick.close().catch(() => {});
    });

    test('a body that stalls midway times out too', async () => {
      const quick = createGuardedClient({ allowLoopback: true, ca: server.ca, timeoutMs: 300 });
      server.route('/stall', (_req, res) => {
        res.writeHead(200);
        res.write('partial');
      });
      const took = await elapsed(() => rejectsWith(quick.fetch(`${server.url}/stall`), 'timeout'));
      assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
      await quick.close().catch(() => {});
    });

    test('the deadline covers redirect hops together', async () => {
      const quick = createGuardedClient({ allowLoopback: true, ca: server.ca, timeoutMs: 300 });
      server.route('/slow-hop', (_req, res) => void setTimeout(() => res.writeHead(302, { location: '/slow-hop' }).end(), 120));
      const took = await elapsed(() => rejectsWith(quick.fetch(`${server.url}/slow-hop`), 'timeout'));
      assert.ok(took < 2000, `took ${took} ms`);
      await quick.close().catch(() => {});
    });
  });
});

describe("Crier's own URL (the sandbox's webhook inbox)", () => {
  let server: Server;
  let own: string;
  const seen: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.url!);
      res.end('received');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    own = `http://localhost:${(server.address() as AddressInfo).port}/sandbox/webhook-inbox`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    seen.length = 0;
  });

  test('exactly that URL is accepted and reached, although it is plain http on loopback', async () => {
    await checkUrl(own, { ownUrl: own });
    const client = createGuardedClient({ ownUrl: own, maxRedirects: 0 });
    const response = await client.fetch(own, { method: 'POST', body: '{}' });
    await client.close();
    assert.equal(response.status, 200);
    assert.deepEqual(seen, ['/sandbox/webhook-inbox']);
  });

  test('any other URL of its origin is judged as usual, and never dialled', async () => {
    const other = own.replace('/sandbox/webhook-inbox', '/elsewhere');
    await rejectsWith(checkUrl(other, { ownUrl: own }), 'not_https');
    await rejectsWith(checkUrl(`${own}/more`, { ownUrl: own }), 'not_https');
    const client = createGuardedClient({ ownUrl: own });
    await rejectsWith(client.fetch(other), 'not_https');
    await rejectsWith(client.fetch(own.replace('http:', 'https:')), 'blocked_address');
    await client.close();
    assert.deepEqual(seen, []);
  });

  test('without the option, the same URL is refused', async () => {
    await rejectsWith(checkUrl(own), 'not_https');
    const client = createGuardedClient();
    await rejectsWith(client.fetch(own), 'not_https');
    await client.close();
    assert.deepEqual(seen, []);
  });
});
