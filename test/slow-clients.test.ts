import assert from 'node:assert/strict';
import { it } from 'node:test';
import { media } from './support/client.js';
import { openRaw, type RawConnection } from './support/raw-connection.js';
import { basic, describeEachDatabase, TEST_ADMIN, type TestServer } from './support/server.js';

/**
 * Slow clients: a client that sends its request head or body too slowly, or keeps
 * an idle connection, is cut after the configured time (small here, so the suite stays short) and
 * holds up nobody else. Raw TLS sockets, so nothing between the test and the server retries or
 * buffers.
 */
const HEADERS_S = 1;
const REQUEST_S = 2;
const IDLE_S = 1;
/** Node checks head and request deadlines every 250 ms at these settings; the rest is scheduling slack. */
const SLACK_MS = 1500;
/** After a 408 the server waits this long for the client to read it and close, then cuts. */
const LINGER_MS = 1000;
const DRIBBLE_MS = 300;
const WORKSPACES = '/api/meshobjects/meshworkspaces';
const WORKSPACE = media('meshworkspace', 'v2');

/** Writes `text` one byte now and one every DRIBBLE_MS until the connection closes (or the text ends). */
function dribble(connection: RawConnection, text: string): void {
  let i = 0;
  const next = () => {
    if (connection.socket.destroyed || i >= text.length) return void clearInterval(timer);
    connection.socket.write(text[i++]!);
  };
  const timer = setInterval(next, DRIBBLE_MS);
  next();
  void connection.closed.then(() => clearInterval(timer));
}

/** A complete request on a fresh connection: status and time taken, handshake included. */
async function oneShot(server: TestServer, head: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const connection = await openRaw(server);
  connection.socket.write(`${head}Host: localhost\r\nConnection: close\r\n\r\n`);
  await connection.closed;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(connection.received())?.[1]);
  return { status, ms: Date.now() - started };
}

/** The JSON error body of a raw answer. */
function errorBody(raw: string): { errorCode: string; message: string; errorId: string } {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { errorCode: string; message: string; errorId: string };
}

/** `graceMs`: what the server adds on purpose (a 408's linger, Node's 1 s on the advertised keep-alive timeout). */
function assertCutWithin(what: string, elapsedMs: number, limitS: number, graceMs = 0): void {
  assert.ok(elapsedMs >= limitS * 1000 - 100, `${what} was cut after ${elapsedMs} ms, before its ${limitS} s limit`);
  assert.ok(elapsedMs <= limitS * 1000 + graceMs + SLACK_MS, `${what} was cut only after ${elapsedMs} ms (limit ${limitS} s)`);
}

describeEachDatabase(
  'slow clients',
  (ctx) => {
    it('cuts a client that dribbles its request head, answering 408 in the error format', async () => {
      const connection = await openRaw(ctx.server, { halfOpen: true });
      dribble(connection, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(1000)}`);
      assertCutWithin('a dribbled head', (await connection.answered) - connection.openedAt, HEADERS_S);
      // It keeps dribbling and never closes its side: the server closes for good.
      assertCutWithin('a dribbled head', (await connection.closed) - connection.openedAt, HEADERS_S, LINGER_MS);
      const raw = connection.received();
      assert.match(raw, /^HTTP\/1\.1 408 /);
      assert.match(raw, /\r\nconnection: close\r\n/i);
      const body = errorBody(raw);
      assert.equal(body.errorCode, 'RequestTimeout');
      assert.match(body.message, /did not arrive in time/);
    });

    it('cuts a client whose body never fully arrives', async () => {
      const connection = await openRaw(ctx.server, { halfOpen: true });
      const body = JSON.stringify({ metadata: { name: 'slow-body' }, spec: { displayName: 'slow' } });
      connection.socket.write(
        `POST ${WORKSPACES} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basic(TEST_ADMIN.username, TEST_ADMIN.password)}\r\n` +
          `Accept: ${WORKSPACE}\r\nContent-Type: ${WORKSPACE}\r\nContent-Length: ${body.length + 1000}\r\n\r\n${body.slice(0, 10)}`,
      );
      dribble(connection, body.slice(10));
      assertCutWithin('a dribbled body', (await connection.answered) - connection.openedAt, REQUEST_S);
      assertCutWithin('a dribbled body', (await connection.closed) - connection.openedAt, REQUEST_S, LINGER_MS);
      const raw = connection.received();
      assert.match(raw, /^HTTP\/1\.1 408 /);
      assert.equal(errorBody(raw).errorCode, 'RequestTimeout');
      // Nothing was stored from the half request.
      const read = await ctx.client.get(`${WORKSPACES}/slow-body`, { headers: { accept: WORKSPACE } });
      assert.equal(read.status, 404, read.text);
    });

    it('closes an idle keep-alive connection after the idle timeout', async () => {
      const connection = await openRaw(ctx.server);
      connection.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      // The answer ends with its JSON body; the connection stays open for the next request.
      while (!/\r\n\r\n\{.*\}$/s.test(connection.received())) await new Promise((resolve) => setTimeout(resolve, 10));
      const answeredAt = Date.now();
      assert.match(connection.received(), /^HTTP\/1\.1 200 /);
      assert.match(connection.received(), /\r\nkeep-alive: timeout=1\r\n/i);
      const elapsed = (await connection.closed) - answeredAt;
      // Node closes 1 s after the advertised `Keep-Alive: timeout`, so clients honouring it never race the close.
      assertCutWithin('an idle keep-alive connection', elapsed, IDLE_S, 1000);
    });

    it('cuts connections that never send a request or never finish the TLS handshake', async () => {
      const silentTls = await openRaw(ctx.server);
      const silentTcp = await openRaw(ctx.server, { tls: false });
      assertCutWithin('a silent TLS connection', (await silentTls.closed) - silentTls.openedAt, HEADERS_S);
      assertCutWithin('a TCP connection without a TLS handshake', (await silentTcp.closed) - silentTcp.openedAt, HEADERS_S);
    });

    it('answers other clients promptly while slow clients are stalled', async () => {
      const slow = await Promise.all(Array.from({ length: 20 }, () => openRaw(ctx.server)));
      slow.forEach((connection, i) =>
        i % 2 === 0
          ? dribble(connection, `GET /healthz HTTP/1.1\r\nX-Slow: ${'a'.repeat(100)}`)
          : connection.socket.write('GET /healthz HTTP/1.1\r\n'),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(
        slow.filter((connection) => connection.socket.destroyed).length,
        0,
        'the slow clients should still be connected while the others are served',
      );
      for (let i = 0; i < 3; i++) {
        const health = await oneShot(ctx.server, 'GET /healthz HTTP/1.1\r\n');
        assert.equal(health.status, 200);
        assert.ok(health.ms < 750, `a health check took ${health.ms} ms`);
        const list = await oneShot(
          ctx.server,
          `GET ${WORKSPACES} HTTP/1.1\r\nAccept: ${WORKSPACE}\r\nAuthorization: ${basic(TEST_ADMIN.username, TEST_ADMIN.password)}\r\n`,
        );
        assert.equal(list.status, 200);
        assert.ok(list.ms < 750, `a list took ${list.ms} ms`);
      }
      for (const connection of slow) assertCutWithin('a stalled client', (await connection.closed) - connection.openedAt, HEADERS_S);
    });
  },
  {
    BLOCKYARD_HEADERS_TIMEOUT_SECONDS: String(HEADERS_S),
    BLOCKYARD_REQUEST_TIMEOUT_SECONDS: String(REQUEST_S),
    BLOCKYARD_IDLE_TIMEOUT_SECONDS: String(IDLE_S),
  },
);
