import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { media } from './support/client.js';
import { openRaw, type RawConnection } from './support/raw-connection.js';
import { basic, startTestServer, TEST_ADMIN, type TestServer } from './support/server.js';

/**
 * The front door (`/` and the TLS port): a browser opening `/` is sent to the console, signed in or
 * not, while API clients (JSON, HAL, vendor types, the wildcard, no Accept) keep the API's answer; a
 * plain-HTTP request on the TLS port gets a short plain-text 400 naming the https URL instead of a
 * closed connection, and TLS clients, keep-alive and the handshake timeout are as before. SQLite only:
 * nothing here touches storage beyond the sign-in every request does.
 */
const HEADERS_S = 1;
/** The server checks deadlines every 250 ms at this setting; the rest is scheduling slack. */
const SLACK_MS = 1500;
const CHROME_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SAFARI_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let server: TestServer;
let port: number;

before(async () => {
  server = await startTestServer('sqlite', { env: { BLOCKYARD_HEADERS_TIMEOUT_SECONDS: String(HEADERS_S) } });
  port = Number(new URL(server.url).port);
});
after(async () => server.stop());

/** Waits until `raw` has received `count` complete answers to HEAD/GET requests without bodies or with Content-Length. */
async function answers(raw: RawConnection, count: number): Promise<string[]> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const split = splitAnswers(raw.received());
    if (split.length >= count) return split;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`expected ${count} answers, got: ${raw.received()}`);
}

function splitAnswers(text: string): string[] {
  const result: string[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return result;
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return result;
    result.push(rest.slice(0, end + 4 + length));
    rest = rest.slice(end + 4 + length);
  }
}

const statusOf = (answer: string) => Number(answer.slice(9, 12));

describe('GET / in a browser', () => {
  for (const [browser, accept] of [
    ['Chrome', CHROME_ACCEPT],
    ['Firefox', FIREFOX_ACCEPT],
    ['Safari', SAFARI_ACCEPT],
    ['plain text/html', 'text/html'],
    ['HTML and JSON at the same quality', 'application/json, text/html'],
  ]) {
    it(`redirects ${browser} to the console, signed in or not (303 See Other)`, async () => {
      for (const anonymous of [true, false]) {
        const answer = await server.client.get('/', { anonymous, headers: { accept } });
        assert.equal(answer.status, 303, answer.text);
        assert.equal(answer.headers.location, '/console/');
        assert.match(answer.headers.vary ?? '', /accept/i);
        assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      }
    });
  }

  it('redirects HEAD, and a query, too', async () => {
    const head = await server.client.request('HEAD', '/', { anonymous: true, headers: { accept: FIREFOX_ACCEPT } });
    assert.equal(head.status, 303);
    assert.equal(head.headers.location, '/console/');
    const query = await server.client.get('/?from=bookmark', { anonymous: true, headers: { accept: FIREFOX_ACCEPT } });
    assert.equal(query.status, 303);
    assert.equal(query.headers.location, '/console/');
  });

  it('redirects only `/`: other paths and other methods answer as before', async () => {
    const other = await server.client.get('/api', { anonymous: true, headers: { accept: FIREFOX_ACCEPT } });
    assert.equal(other.status, 401);
    const post = await server.client.post('/', '{}', {
      anonymous: true,
      headers: { accept: FIREFOX_ACCEPT, 'content-type': 'application/json' },
    });
    assert.equal(post.status, 401);
  });
});

describe('GET / from an API client', () => {
  const apiAccepts: [string, string | undefined][] = [
    ['curl (the wildcard)', '*/*'],
    ['JSON', 'application/json'],
    ['HAL', 'application/hal+json'],
    ['a vendor type', media('', 'v1')],
    ['JSON preferred over HTML', 'application/json, text/html;q=0.9'],
    ['any application type preferred over HTML', 'text/html;q=0.5, application/*'],
    ['HTML refused', 'text/html;q=0, application/json;q=0.1'],
    ['text of any kind', 'text/*'],
  ];
  for (const [client, accept] of apiAccepts) {
    it(`keeps the API's answer for ${client}: 401 anonymous, 404 signed in`, async () => {
      const anonymous = await server.client.get('/', { anonymous: true, headers: { accept } });
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.match(anonymous.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(anonymous.json.errorCode, 'Unauthorized');
      const signedIn = await server.client.get('/', { headers: { accept } });
      assert.equal(signedIn.status, 404, signedIn.text);
      assert.equal(signedIn.json.errorCode, 'NotFound');
    });
  }

  it('keeps the API answer when no Accept header is sent', async () => {
    const raw = await openRaw(server, { tls: true });
    raw.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const [answer] = await answers(raw, 1);
    assert.equal(statusOf(answer!), 401, answer);
    assert.match(answer!, /\r\ncontent-type: application\/json/i);
    raw.socket.destroy();
  });
});

describe('plain HTTP on the TLS port', () => {
  it('answers a plain-HTTP request with a short plain-text 400 naming the https URL, then closes', async () => {
    const raw = await openRaw(server, { tls: false });
    raw.socket.write(`GET / HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
    const closedAt = await raw.closed;
    const text = raw.received();
    assert.match(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(text, /\r\ncontent-type: text\/plain; charset=utf-8\r\n/i);
    assert.match(text, /\r\nconnection: close\r\n/i);
    assert.match(text, /\r\nx-content-type-options: nosniff\r\n/i);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    assert.equal(Buffer.byteLength(body), Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1]));
    assert.match(body, new RegExp(`This port speaks HTTPS: use https://localhost:${port}/`));
    assert.ok(closedAt - raw.openedAt < SLACK_MS, `closed after ${closedAt - raw.openedAt} ms`);
  });

  it('answers a POST with a body, and a request without Host, the same way', async () => {
    const post = await openRaw(server, { tls: false });
    post.socket.write(
      `POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"username":"a","password":"not-a-real"}`,
    );
    await post.closed;
    assert.match(post.received(), /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(post.received(), /use https:\/\/localhost\//);
    const bare = await openRaw(server, { tls: false });
    bare.socket.write('GET / HTTP/1.0\r\n\r\n');
    await bare.closed;
    assert.match(bare.received(), /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(bare.received(), /This port speaks HTTPS: use https:\/\/ instead of http:\/\//);
  });

  it('does not repeat a Host header that is not a plain host and port', async () => {
    const raw = await openRaw(server, { tls: false });
    raw.socket.write('GET / HTTP/1.1\r\nHost: evil.example/<script>\r\n\r\n');
    await raw.closed;
    assert.match(raw.received(), /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.doesNotMatch(raw.received(), /evil|script/);
  });

  it('answers a request head that arrives slowly when the headers timeout is up', async () => {
    const raw = await openRaw(server, { tls: false });
    raw.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
    const closedAt = await raw.closed;
    assert.match(raw.received(), /^HTTP\/1\.1 400 Bad Request\r\n/);
    const elapsed = closedAt - raw.openedAt;
    assert.ok(elapsed >= HEADERS_S * 1000 - 100 && elapsed < HEADERS_S * 1000 + SLACK_MS, `answered and closed after ${elapsed} ms`);
  });

  it('serves TLS clients as before, keep-alive included, after plain-HTTP requests', async () => {
    const plain = await openRaw(server, { tls: false });
    plain.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await plain.closed;
    const raw = await openRaw(server, { tls: true });
    assert.equal((raw.socket as TLSSocket).authorized, true);
    const authorization = basic(TEST_ADMIN.username, TEST_ADMIN.password);
    raw.socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await answers(raw, 1);
    raw.socket.write(`GET /api HTTP/1.1\r\nHost: localhost\r\nAccept: ${media('', 'v1')}\r\nAuthorization: ${authorization}\r\n\r\n`);
    const [health, index] = await answers(raw, 2);
    assert.equal(statusOf(health!), 200, health);
    assert.equal(statusOf(index!), 200, index);
    assert.equal(raw.socket.destroyed, false, 'the TLS connection stays open between requests');
    raw.socket.destroy();
    const viaClient = await server.client.get('/api', { headers: { accept: media('', 'v1') } });
    assert.equal(viaClient.status, 200);
  });

  it('still cuts a connection that sends nothing, or only the start of a TLS handshake, at the handshake timeout', async () => {
    const silent = await openRaw(server, { tls: false });
    const started = await openRaw(server, { tls: false });
    started.socket.write(Buffer.from([0x16]));
    for (const [what, raw] of [
      ['a silent connection', silent],
      ['a stalled handshake', started],
    ] as const) {
      const elapsed = (await raw.closed) - raw.openedAt;
      assert.equal(raw.received(), '', `${what} got an answer`);
      assert.ok(elapsed >= HEADERS_S * 1000 - 100 && elapsed < HEADERS_S * 1000 + SLACK_MS, `${what} was cut after ${elapsed} ms`);
    }
  });

  it('counts the handshake timeout from the connection, not from its first byte', async () => {
    const late = await openRaw(server, { tls: false });
    await new Promise((resolve) => setTimeout(resolve, HEADERS_S * 700));
    late.socket.write(Buffer.from([0x16]));
    const elapsed = (await late.closed) - late.openedAt;
    // Counted from the first byte it would be 1.7 timeouts; the deadline is a timer, so little slack is needed.
    assert.ok(elapsed < HEADERS_S * 1000 + 500, `a handshake started late was cut after ${elapsed} ms`);
  });

  it('closes, without an answer, a connection that is neither TLS nor HTTP', async () => {
    const raw = await openRaw(server, { tls: false });
    raw.socket.write(Buffer.from('\u0000\u0001garbage\r\n\r\n', 'latin1'));
    await raw.closed;
    assert.equal(raw.received(), '');
  });
});
