import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  connect as tlsConnect,
  createServer as createTlsServer,
  getCiphers,
  type ConnectionOptions,
  type Server as TlsServer,
} from 'node:tls';
import pino from 'pino';
import selfsigned from 'selfsigned';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { BLOCK_V1, BLOCKS } from './support/blocks.js';
import { basic, describeEachDatabase, startTestServer, TEST_ADMIN, TEST_LOG_DIR, type TestServer } from './support/server.js';

/**
 * The transport: the generated certificate is a leaf, TLS 1.2 offers
 * only forward-secret AEAD suites, the request path never reaches a header raw, and every answer
 * carries the security headers, including the raw ones for requests the HTTP parser refuses. Real TLS
 * clients throughout (node:tls, and the openssl and curl command-line tools when they are installed).
 */

/** What every answer must carry. Listed here, not imported: this is the contract the server keeps. */
const SECURITY_HEADERS: Record<string, string> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
const HEADERS_TIMEOUT_S = 1;
const REPLACED = /replacing the generated TLS certificate/;
/** The TLS 1.2 suites the server may agree to: ECDHE key exchange with AES-GCM or ChaCha20-Poly1305. */
const TLS12_ALLOWED = /^ECDHE-(ECDSA|RSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/;
const TLS13_SUITES = ['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_128_GCM_SHA256'];

const has = (tool: string) =>
  spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0 || spawnSync(tool, ['version'], { stdio: 'ignore' }).status === 0;
const OPENSSL = has('openssl');
const CURL = has('curl');

interface Handshake {
  ok: boolean;
  protocol?: string | null;
  cipher?: string;
  authorizationError?: string;
  certificate?: X509Certificate;
  error?: string;
}

/** One TLS handshake to 127.0.0.1 with these options; never throws. */
function handshake(options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    let socket: ReturnType<typeof tlsConnect>;
    try {
      socket = tlsConnect({ host: '127.0.0.1', ...options }, () => {
        const peer = socket.getPeerX509Certificate();
        resolve({
          ok: true,
          protocol: socket.getProtocol(),
          cipher: socket.getCipher().name,
          ...(socket.authorizationError ? { authorizationError: String(socket.authorizationError) } : {}),
          ...(peer ? { certificate: peer } : {}),
        });
        socket.destroy();
      });
    } catch (error) {
      // The client itself cannot offer what was asked (e.g. a suite this OpenSSL does not build).
      resolve({ ok: false, error: `client: ${(error as Error).message}` });
      return;
    }
    socket.on('error', (error) => resolve({ ok: false, error: error.message }));
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve({ ok: false, error: 'timeout' });
    });
  });
}

const portOf = (url: string) => Number(new URL(url).port);

/** The raw answer to a request written as bytes on a fresh TLS connection (read until the server closes). */
function rawExchange(
  url: string,
  ca: string,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = tlsConnect({ host: '127.0.0.1', port: portOf(url), servername: 'localhost', ca }, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', (error) => (data ? undefined : reject(error)));
    socket.on('close', () => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(data.slice(0, 200))}`));
      const head = data.slice(0, end);
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, head, body: data.slice(end + 4) });
    });
    socket.setTimeout(15_000, () => socket.destroy());
  });
}

function assertSecurityHeaders(headers: Record<string, string | undefined>, what: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(headers[name], value, `${what}: ${name}`);
}

/** The key usage bits of a certificate (RFC 5280 §4.2.1.3), read from its DER; undefined without the extension. */
function keyUsage(certificate: X509Certificate): Set<string> | undefined {
  const NAMES = [
    'digitalSignature',
    'nonRepudiation',
    'keyEncipherment',
    'dataEncipherment',
    'keyAgreement',
    'keyCertSign',
    'cRLSign',
    'encipherOnly',
    'decipherOnly',
  ];
  const der = certificate.raw;
  const oid = der.indexOf(Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x0f])); // OBJECT IDENTIFIER 2.5.29.15
  if (oid < 0) return undefined;
  let at = oid + 5;
  if (der[at] === 0x01) at += 3; // BOOLEAN critical
  assert.equal(der[at], 0x04, 'keyUsage: OCTET STRING');
  at += 2;
  assert.equal(der[at], 0x03, 'keyUsage: BIT STRING');
  const length = der[at + 1]!;
  const bytes = der.subarray(at + 3, at + 2 + length);
  const bits = new Set<string>();
  NAMES.forEach((name, bit) => {
    if (((bytes[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1) bits.add(name);
  });
  return bits;
}

/** A certificate as the earlier versions generated it: a self-signed CA that may sign certificates. */
async function caCertificate(keyType: 'ec' | 'rsa'): Promise<{ cert: string; key: string }> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType,
    ...(keyType === 'rsa' ? { keySize: 2048 } : { curve: 'P-256' as const }),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Starts the real server without the test support's assumptions about where its certificate is. */
async function startPlain(env: Record<string, string>): Promise<{ server: RunningServer; logFile: string }> {
  const logFile = path.join(TEST_LOG_DIR, `transport-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  const config = loadConfig({
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_LOG_LEVEL: 'info',
    BLOCKYARD_MASTER_KEY: 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=',
    ...env,
  });
  const server = await startServer(config, {
    logDestination: pino.destination({ dest: logFile, sync: true, mkdir: true }),
    print: () => undefined,
  });
  return { server, logFile };
}

const logLines = async (logFile: string, pattern: RegExp) =>
  (await readFile(logFile, 'utf8')).split('\n').filter((line) => pattern.test(line));

/** A TLS server on a free port presenting this certificate; answers every request with 200. */
async function presenting(cert: string, key: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: TlsServer = createTlsServer({ cert, key }, (socket) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Runs a command-line tool asynchronously (the server runs in this process: a synchronous child would
 * block it) with empty stdin; resolves with its exit status and output.
 */
function run(tool: string, args: string[]): Promise<{ status: number | null; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(tool, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 15_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ status: null, stdout, output: `${stdout}${stderr}${error.message}` }));
    child.on('close', (status) => resolve({ status, stdout, output: `${stdout}${stderr}` }));
    child.stdin.end();
  });
}

const curl = (args: string[]) => run('curl', ['-sS', '--max-time', '10', ...args]);
const openssl = (args: string[]) => run('openssl', args);

/** Every TLS 1.2 suite this client can offer, tried one at a time: the ones the server agreed to. */
async function tls12SuitesAccepted(port: number, ca: string): Promise<string[]> {
  const suites = getCiphers()
    .filter((name) => !name.startsWith('tls_'))
    .map((name) => name.toUpperCase());
  const accepted: string[] = [];
  for (const suite of suites) {
    const outcome = await handshake({ port, servername: 'localhost', ca, maxVersion: 'TLSv1.2', ciphers: suite });
    if (outcome.ok) accepted.push(outcome.cipher!);
  }
  return accepted;
}

describe('transport [sqlite]', () => {
  let server: TestServer;
  let cert: string;
  let key: string;

  before(async () => {
    server = await startTestServer('sqlite', { env: { BLOCKYARD_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_S) } });
    cert = await readFile(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8');
    key = await readFile(path.join(server.dataDir, 'tls', 'key.pem'), 'utf8');
  });
  after(async () => {
    await server?.stop();
  });

  describe('the generated certificate (item 5)', () => {
    it('is a leaf: CA:FALSE, digitalSignature and keyEncipherment, serverAuth only, for localhost, 127.0.0.1 and ::1', async () => {
      const served = await handshake({ port: portOf(server.url), servername: 'localhost', ca: cert });
      assert.ok(served.ok, served.error);
      assert.equal(served.authorizationError, undefined);
      const file = new X509Certificate(cert);
      assert.ok(served.certificate!.raw.equals(file.raw), 'the served certificate is the one in <data dir>/tls/cert.pem');
      for (const [what, certificate] of [
        ['served', served.certificate!],
        ['cert.pem', file],
      ] as const) {
        assert.equal(certificate.ca, false, `${what}: not a CA`);
        assert.deepEqual([...(keyUsage(certificate) ?? [])].sort(), ['digitalSignature', 'keyEncipherment'], `${what}: key usage`);
        assert.deepEqual(certificate.keyUsage, ['1.3.6.1.5.5.7.3.1'], `${what}: extended key usage serverAuth only`);
        assert.deepEqual(
          certificate.subjectAltName?.split(', ').sort(),
          ['DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1'],
          `${what}: names`,
        );
        assert.equal(certificate.issuer, certificate.subject, `${what}: self-issued`);
        assert.ok(certificate.verify(certificate.publicKey), `${what}: self-signed`);
      }
    });

    it('shows the same extensions to openssl x509', { skip: OPENSSL ? false : 'no openssl CLI' }, async () => {
      const file = path.join(server.dataDir, 'tls', 'cert.pem');
      const text = (await openssl(['x509', '-in', file, '-noout', '-ext', 'basicConstraints,keyUsage,extendedKeyUsage'])).output;
      assert.match(text, /CA:FALSE/);
      assert.match(text, /Digital Signature, Key Encipherment\n/);
      assert.doesNotMatch(text, /Certificate Sign/);
      assert.match(text, /TLS Web Server Authentication\n/);
    });

    it("makes a client that trusts it refuse another host's certificate signed with the server's key", async () => {
      // What an attacker holding the server's key (or the operator's backup of it) could mint.
      const forged = await selfsigned.generate([{ name: 'commonName', value: 'evil.example' }], {
        keyType: 'ec',
        curve: 'P-256',
        algorithm: 'sha256',
        ca: { cert, key },
        extensions: [
          { name: 'basicConstraints', cA: false, critical: true },
          { name: 'keyUsage', digitalSignature: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: [{ type: 2, value: 'evil.example' }] },
        ],
      });
      const forgedCert = new X509Certificate(forged.cert);
      assert.ok(forgedCert.verify(new X509Certificate(cert).publicKey), 'the forged certificate is signed with the server key');
      const evil = await presenting(forged.cert, forged.private);
      try {
        const outcome = await handshake({ port: evil.port, servername: 'evil.example', ca: cert });
        assert.equal(outcome.ok, false, `a client trusting the server certificate accepted evil.example (${outcome.cipher})`);
        // The same client still trusts the server itself.
        const genuine = await handshake({ port: portOf(server.url), servername: 'localhost', ca: cert });
        assert.ok(genuine.ok, genuine.error);
        if (CURL) {
          const refused = await curl([
            '--cacert',
            path.join(server.dataDir, 'tls', 'cert.pem'),
            '--resolve',
            `evil.example:${evil.port}:127.0.0.1`,
            `https://evil.example:${evil.port}/`,
          ]);
          assert.notEqual(refused.status, 0, `curl --cacert accepted evil.example: ${refused.stdout}`);
        }
      } finally {
        await evil.close();
      }
    });

    it('is trusted by curl --cacert, as the README walkthrough says', { skip: CURL ? false : 'no curl' }, async () => {
      const port = portOf(server.url);
      const caFile = path.join(server.dataDir, 'tls', 'cert.pem');
      for (const url of [`https://localhost:${port}/healthz`, `https://127.0.0.1:${port}/healthz`]) {
        const result = await curl([
          '--cacert',
          caFile,
          '--resolve',
          `localhost:${port}:127.0.0.1`,
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          url,
        ]);
        assert.equal(result.stdout, '200', `${url}: ${result.output}`);
      }
    });
  });

  describe('cipher suites (item 6)', () => {
    it('on TLS 1.2 agrees only to ECDHE with AES-GCM or ChaCha20-Poly1305', async () => {
      const accepted = await tls12SuitesAccepted(portOf(server.url), cert);
      assert.ok(accepted.length > 0, 'some TLS 1.2 suite works');
      assert.deepEqual(
        accepted.filter((suite) => !TLS12_ALLOWED.test(suite)),
        [],
        `accepted: ${accepted.join(' ')}`,
      );
      for (const suite of ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305'])
        assert.ok(accepted.includes(suite), `${suite} is accepted`);
    });

    it('refuses CBC suites on TLS 1.2 that this client can offer (a permissive server with the same certificate accepts them)', async () => {
      const permissive = createTlsServer({ cert, key, ciphers: 'ALL:@SECLEVEL=0', maxVersion: 'TLSv1.2' }, (socket) =>
        socket.on('error', () => undefined).end(),
      );
      await new Promise<void>((resolve) => permissive.listen(0, '127.0.0.1', resolve));
      try {
        for (const suite of [
          'ECDHE-ECDSA-AES128-SHA256',
          'ECDHE-ECDSA-AES256-SHA384',
          'ECDHE-ECDSA-AES128-SHA',
          'ECDHE-ECDSA-AES256-SHA',
        ]) {
          const options = { servername: 'localhost', ca: cert, maxVersion: 'TLSv1.2' as const, ciphers: suite };
          const control = await handshake({ ...options, port: (permissive.address() as { port: number }).port });
          assert.ok(control.ok, `the client can offer ${suite}: ${control.error}`);
          const outcome = await handshake({ ...options, port: portOf(server.url) });
          assert.equal(outcome.ok, false, `${suite} was accepted`);
        }
      } finally {
        await new Promise((resolve) => permissive.close(resolve));
      }
    });

    it('still speaks TLS 1.3 with its three suites', async () => {
      const port = portOf(server.url);
      const plain = await handshake({ port, servername: 'localhost', ca: cert });
      assert.equal(plain.protocol, 'TLSv1.3');
      for (const suite of TLS13_SUITES) {
        const outcome = await handshake({ port, servername: 'localhost', ca: cert, minVersion: 'TLSv1.3', ciphers: suite });
        assert.ok(outcome.ok, `${suite}: ${outcome.error}`);
        assert.equal(outcome.protocol, 'TLSv1.3');
        assert.equal(outcome.cipher, suite);
      }
    });

    it('answers openssl s_client the same way', { skip: OPENSSL ? false : 'no openssl CLI' }, async () => {
      const connect = [
        's_client',
        '-connect',
        `127.0.0.1:${portOf(server.url)}`,
        '-servername',
        'localhost',
        '-CAfile',
        path.join(server.dataDir, 'tls', 'cert.pem'),
        '-verify_return_error',
        '-brief',
      ];
      for (const suite of ['ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384']) {
        const result = await openssl([...connect, '-tls1_2', '-cipher', suite]);
        assert.notEqual(result.status, 0, `${suite} accepted: ${result.output}`);
      }
      for (const suite of ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305']) {
        const result = await openssl([...connect, '-tls1_2', '-cipher', suite]);
        assert.equal(result.status, 0, `${suite} refused: ${result.output}`);
        assert.match(result.output, new RegExp(`Ciphersuite: ${suite}`));
      }
      const tls13 = await openssl([...connect, '-tls1_3']);
      assert.equal(tls13.status, 0, tls13.output);
      assert.match(tls13.output, /Protocol version: TLSv1\.3/);
    });
  });

  describe('security headers on every answer (item 9)', () => {
    const raw = (request: string) => rawExchange(server.url, cert, request);

    it('on the raw 400 for requests the HTTP parser refuses', async () => {
      for (const request of [
        'GARBAGE\r\n\r\n',
        'GET /api HTTP/1.1\r\nHost: localhost\r\nContent-Length: twelve\r\n\r\n',
        'GET /api HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n',
        'GET /a b c HTTP/1.1\r\nHost: localhost\r\n\r\n',
      ]) {
        const answer = await raw(request);
        assert.equal(answer.status, 400, `${JSON.stringify(request)}: ${answer.head}`);
        assertSecurityHeaders(answer.headers, JSON.stringify(request));
        assert.equal(JSON.parse(answer.body).errorCode, 'BadRequest');
      }
    });

    it('on the raw 431 for a 64 KB header', async () => {
      const answer = await raw(`GET /api HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      assert.equal(answer.status, 431, answer.head);
      assertSecurityHeaders(answer.headers, '431');
    });

    it('on the raw 408 for a request head that does not arrive in time', async () => {
      const answer = await raw('GET /api HTTP/1.1\r\nHost: localhost\r\n');
      assert.equal(answer.status, 408, answer.head);
      assertSecurityHeaders(answer.headers, '408');
    });

    it("on Fastify's answers: success, not found, malformed URL, 401, 406", async () => {
      const client = server.client;
      const answers = {
        healthz: await client.get('/healthz', { anonymous: true }),
        'no route': await client.get('/api/no-such-thing', { headers: { accept: 'application/json' } }),
        'bad escape': await client.get('/api/meshobjects/meshworkspaces/%zz'),
        unauthenticated: await client.get('/api', { anonymous: true }),
        'not acceptable': await client.get('/api'),
      };
      assert.deepEqual(
        Object.values(answers).map((answer) => answer.status),
        [200, 404, 400, 401, 406],
      );
      for (const [what, answer] of Object.entries(answers)) assertSecurityHeaders(answer.headers, what);
    });

    it('on the 503 (in the error format, Connection: close) for a request arriving on an open connection while the server closes', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-transport-'));
      const { server: closing } = await startPlain({ BLOCKYARD_DATA_DIR: dataDir });
      try {
        const ca = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
        let data = '';
        const socket = tlsConnect({ host: '127.0.0.1', port: portOf(closing.url), servername: 'localhost', ca });
        socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.setTimeout(15_000, () => socket.destroy());
        const ended = new Promise((resolve) => socket.on('close', resolve));
        // A request in progress keeps the connection open while the server closes: its head has been
        // parsed and dispatched once the server says 100 Continue.
        socket.write(
          'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
        );
        while (!data.includes('100 Continue')) await new Promise((resolve) => setTimeout(resolve, 10));
        const closed = closing.close();
        while (closing.app.server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
        socket.write('{}GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await ended;
        await closed;
        const last = data.slice(data.lastIndexOf('HTTP/1.1 '));
        assert.match(last, /^HTTP\/1\.1 503 /, data);
        const headers = Object.fromEntries(
          last
            .slice(0, last.indexOf('\r\n\r\n'))
            .split('\r\n')
            .slice(1)
            .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        assertSecurityHeaders(headers, '503 while closing');
        assert.equal(headers.connection, 'close');
        assert.ok(headers['retry-after']);
        const body = JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4)) as { errorCode?: string; message?: string };
        assert.equal(body.errorCode, 'ServiceUnavailable', last);
        assert.match(body.message ?? '', /shutting down/);
      } finally {
        await closing.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
});

describe('certificates in the data directory and given ones [sqlite]', () => {
  it('replaces a CA certificate generated by an earlier version with a leaf and a new key at start, logging it once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-transport-'));
    const certFile = path.join(dataDir, 'tls', 'cert.pem');
    const keyFile = path.join(dataDir, 'tls', 'key.pem');
    try {
      const old = await caCertificate('ec');
      await mkdir(path.join(dataDir, 'tls'), { recursive: true });
      await writeFile(certFile, old.cert);
      await writeFile(keyFile, old.key);

      const first = await startPlain({ BLOCKYARD_DATA_DIR: dataDir });
      let leaf: string;
      try {
        leaf = await readFile(certFile, 'utf8');
        assert.notEqual(leaf, old.cert);
        assert.notEqual(await readFile(keyFile, 'utf8'), old.key, 'a new key: the old one was trusted as a CA');
        const file = new X509Certificate(leaf);
        assert.equal(file.ca, false);
        assert.deepEqual([...keyUsage(file)!].sort(), ['digitalSignature', 'keyEncipherment']);
        const served = await handshake({ port: portOf(first.server.url), servername: 'localhost', ca: leaf });
        assert.ok(served.ok, served.error);
        assert.ok(served.certificate!.raw.equals(file.raw));
        assert.equal((await logLines(first.logFile, REPLACED)).length, 1, 'logged once');
      } finally {
        await first.server.close();
      }

      // The leaf is kept: the next start neither replaces nor logs anything.
      const second = await startPlain({ BLOCKYARD_DATA_DIR: dataDir });
      try {
        assert.equal(await readFile(certFile, 'utf8'), leaf);
        const served = await handshake({ port: portOf(second.server.url), servername: 'localhost', ca: leaf });
        assert.ok(served.ok, served.error);
        assert.equal((await logLines(second.logFile, REPLACED)).length, 0);
      } finally {
        await second.server.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('regenerates a generated pair whose key does not match its certificate', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-transport-'));
    try {
      const one = await caCertificate('ec');
      const other = await caCertificate('ec');
      await mkdir(path.join(dataDir, 'tls'), { recursive: true });
      await writeFile(path.join(dataDir, 'tls', 'cert.pem'), one.cert);
      await writeFile(path.join(dataDir, 'tls', 'key.pem'), other.key);
      const { server } = await startPlain({ BLOCKYARD_DATA_DIR: dataDir });
      try {
        const leaf = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
        assert.equal(new X509Certificate(leaf).ca, false);
        const served = await handshake({ port: portOf(server.url), servername: 'localhost', ca: leaf });
        assert.ok(served.ok, served.error);
      } finally {
        await server.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe('a certificate given through BLOCKYARD_TLS_CERT (an RSA CA certificate here)', () => {
    let dir: string;
    let given: { cert: string; key: string };
    let started: { server: RunningServer; logFile: string };

    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'blockyard-transport-'));
      given = await caCertificate('rsa');
      await writeFile(path.join(dir, 'given-cert.pem'), given.cert);
      await writeFile(path.join(dir, 'given-key.pem'), given.key);
      started = await startPlain({
        BLOCKYARD_DATA_DIR: path.join(dir, 'data'),
        BLOCKYARD_TLS_CERT: path.join(dir, 'given-cert.pem'),
        BLOCKYARD_TLS_KEY: path.join(dir, 'given-key.pem'),
      });
    });
    after(async () => {
      await started?.server.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('is served as it is and never touched, whatever it is', async () => {
      const served = await handshake({ port: portOf(started.server.url), servername: 'localhost', ca: given.cert });
      assert.ok(served.ok, served.error);
      assert.ok(served.certificate!.raw.equals(new X509Certificate(given.cert).raw));
      assert.equal(served.certificate!.ca, true);
      assert.equal(await readFile(path.join(dir, 'given-cert.pem'), 'utf8'), given.cert);
      assert.equal(await readFile(path.join(dir, 'given-key.pem'), 'utf8'), given.key);
      await assert.rejects(readFile(path.join(dir, 'data', 'tls', 'cert.pem')), { code: 'ENOENT' });
      assert.equal((await logLines(started.logFile, REPLACED)).length, 0);
    });

    it('on TLS 1.2 agrees only to ECDHE-RSA with AES-GCM or ChaCha20-Poly1305', async () => {
      const port = portOf(started.server.url);
      const accepted = await tls12SuitesAccepted(port, given.cert);
      assert.deepEqual(
        accepted.filter((suite) => !TLS12_ALLOWED.test(suite)),
        [],
        `accepted: ${accepted.join(' ')}`,
      );
      for (const suite of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305'])
        assert.ok(accepted.includes(suite), `${suite} is accepted`);
      // Static RSA, finite-field DHE and CBC, each of which a permissive server with this certificate accepts.
      const permissive = createTlsServer(
        { cert: given.cert, key: given.key, ciphers: 'ALL:@SECLEVEL=0', dhparam: 'auto', maxVersion: 'TLSv1.2' },
        (socket) => socket.on('error', () => undefined).end(),
      );
      await new Promise<void>((resolve) => permissive.listen(0, '127.0.0.1', resolve));
      try {
        for (const suite of [
          'AES128-SHA',
          'AES128-GCM-SHA256',
          'DHE-RSA-AES128-GCM-SHA256',
          'ECDHE-RSA-AES128-SHA256',
          'ECDHE-RSA-AES128-SHA',
        ]) {
          const options = { servername: 'localhost', ca: given.cert, maxVersion: 'TLSv1.2' as const, ciphers: suite };
          const control = await handshake({ ...options, port: (permissive.address() as { port: number }).port });
          assert.ok(control.ok, `the client can offer ${suite}: ${control.error}`);
          assert.equal((await handshake({ ...options, port })).ok, false, `${suite} was accepted`);
        }
      } finally {
        await new Promise((resolve) => permissive.close(resolve));
      }
    });
  });
});

describeEachDatabase('the Link of deprecated versions (item 7)', (ctx) => {
  const canonical = (id: string) => `${ctx.server.url}${BLOCKS}/${encodeURIComponent(id)}`;

  /** The one `<URL>` of a successor-version Link, asserting there is exactly one and nothing else is bracketed. */
  function linkTarget(link: string | undefined): string {
    assert.ok(link, 'a Link header');
    const targets = link.match(/<[^<>]*>/g) ?? [];
    assert.equal(targets.length, 1, `one <URL> in ${link}`);
    assert.equal(link.split('<').length - 1, 1, `one "<" in ${link}`);
    assert.equal(link.split('>').length - 1, 1, `one ">" in ${link}`);
    assert.match(link, /^<[^<>]*>; rel="successor-version"; type="[^"]*"$/);
    return targets[0]!.slice(1, -1);
  }

  it('names the canonical, encoded URL when the raw path carries >;rel="alternate"', async () => {
    const injected = 'x>;rel="alternate"';
    const authorization = basic(TEST_ADMIN.username, TEST_ADMIN.password);
    const answer = await rawExchange(
      ctx.server.url,
      await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8'),
      `GET ${BLOCKS}/${injected} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nAccept: ${BLOCK_V1}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(answer.status, 404, answer.head);
    assert.ok(answer.headers.deprecation, 'Deprecation');
    assert.equal(linkTarget(answer.headers.link), canonical(injected));
  });

  it('names the canonical URL for percent-encoded, ordinary and list paths (never the query)', async () => {
    const cases: Array<[string, string]> = [
      [`${BLOCKS}/x%3E;rel=%22alternate%22`, canonical('x>;rel="alternate"')],
      [`${BLOCKS}/a%2Fb%20c`, canonical('a/b c')],
      [`${BLOCKS}/3f1e0b7c-2a14-4d8e-9a55-a3c3c7f26b0e`, canonical('3f1e0b7c-2a14-4d8e-9a55-a3c3c7f26b0e')],
      [`${BLOCKS}?workspaceIdentifier=a%3Eb&name=%3C`, `${ctx.server.url}${BLOCKS}`],
    ];
    for (const [requested, expected] of cases) {
      const response = await ctx.client.get(requested, { headers: { accept: BLOCK_V1 } });
      assert.ok([200, 404].includes(response.status), `${requested}: ${response.status} ${response.text}`);
      assert.ok(response.headers.deprecation, `${requested}: Deprecation`);
      assert.equal(linkTarget(response.headers.link), expected, requested);
    }
  });
});
