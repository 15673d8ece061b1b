import type { Socket } from 'node:net';
import type { Server as TlsServer, TLSSocket } from 'node:tls';
import { SECURITY_HEADER_LINES } from './security-headers.js';

/** Every TLS connection starts with a handshake record (content type 22). */
const TLS_HANDSHAKE = 0x16;
/** Enough for any request head a confused client sends; the answer does not wait for more. */
const HEAD_LIMIT = 8192;
/** After the answer the client gets this long to read it and close before the connection is cut. */
const LINGER_MS = 1000;
/** What a Host header may be for it to be repeated in the answer: a name or address and a port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * A plain-HTTP request on the TLS port (`http://` where `https://` was meant) would otherwise fail
 * the TLS handshake and be closed without a word. Each accepted connection is looked at before the
 * TLS server sees it: its first byte is a TLS handshake record (0x16) or something else. TLS — and
 * anything not starting like an HTTP method — goes to the TLS server unchanged, the byte put back
 * (Node's TLS socket reads what the raw socket has buffered). An HTTP method's first letter gets a
 * short plain-text 400 naming the https URL, then the connection is closed.
 *
 * A 400, not a redirect to https: a redirect would let the client's request (perhaps with its
 * credentials, already sent in plaintext) succeed on the next hop, so clients and scripts would keep
 * using http:// unnoticed. Nothing here is ever served over plain HTTP, and nothing of the request
 * is logged (it may carry credentials).
 *
 * Slow clients: the connection's deadline (`handshakeTimeoutMs`, the TLS handshake timeout) counts
 * from its start whatever happens: it closes a connection that sends nothing, and one handed to TLS
 * whose handshake has not finished by then (Node's own handshake timeout, counting from the hand-over,
 * would give a client that waits before its first byte up to twice as long). A plain-HTTP request
 * head is waited for until the deadline at most, then answered with whatever arrived.
 */
export function answerPlainHttpOnTlsPort(server: TlsServer, handshakeTimeoutMs: number): void {
  // The TLS server's own connection listener(s): they wrap the socket in TLS. Called after the peek.
  const tlsListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  for (const listener of tlsListeners) server.removeListener('connection', listener);
  // Deadlines of connections handed to TLS, until their handshake finishes. By peer address and port:
  // the TLS socket Node makes of a connection has the same peer, and no public link to the raw one.
  const handshaking = new Map<string, NodeJS.Timeout>();
  server.prependListener('secureConnection', (tlsSocket: TLSSocket) => {
    const peer = peerOf(tlsSocket);
    clearTimeout(handshaking.get(peer));
    handshaking.delete(peer);
  });
  server.prependListener('connection', (socket: Socket) => {
    const answerBy = Date.now() + handshakeTimeoutMs;
    const deadline = setTimeout(() => socket.destroy(), handshakeTimeoutMs);
    deadline.unref();
    const fail = () => {
      clearTimeout(deadline);
      socket.destroy();
    };
    socket.on('error', fail);
    socket.on('end', fail);
    const peek = () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) return;
      socket.removeListener('readable', peek);
      socket.removeListener('error', fail);
      socket.removeListener('end', fail);
      if (first[0] === TLS_HANDSHAKE || !isUpperCaseLetter(first[0]!)) {
        if (socket.remotePort === undefined) return fail();
        const peer = peerOf(socket);
        handshaking.set(peer, deadline);
        socket.once('close', () => {
          clearTimeout(deadline);
          if (handshaking.get(peer) === deadline) handshaking.delete(peer);
        });
        socket.unshift(first);
        for (const listener of tlsListeners) listener.call(server, socket);
        return;
      }
      clearTimeout(deadline);
      answerPlainHttp(socket, first, answerBy);
    };
    socket.on('readable', peek);
  });
}

const peerOf = (socket: Socket) => `${socket.remoteAddress} ${socket.remotePort}`;

function isUpperCaseLetter(byte: number): boolean {
  return byte >= 0x41 && byte <= 0x5a;
}

/** Reads the request head (bounded in size, and in time by `answerBy`), answers the 400 and closes. */
function answerPlainHttp(socket: Socket, first: Buffer, answerBy: number): void {
  let head = first.toString('latin1');
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    socket.removeAllListeners('data');
    // Whatever else the client sends is read and dropped: closing with unread data would reset the
    // connection, and the client could lose the answer.
    socket.on('data', () => undefined);
    socket.end(plainHttpAnswer(hostOf(head)));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  // The client is talking HTTP, if slowly: when time is up it gets the answer rather than silence.
  const timer = setTimeout(answer, Math.max(0, answerBy - Date.now()));
  timer.unref();
  socket.on('error', () => socket.destroy());
  socket.on('close', () => clearTimeout(timer));
  socket.on('end', answer);
  socket.on('data', (chunk: Buffer) => {
    head += chunk.toString('latin1');
    if (head.includes('\r\n\r\n') || head.includes('\n\n') || head.length >= HEAD_LIMIT) answer();
  });
}

/** The Host header of a request head, when it is a plain host (and port) fit to repeat. */
function hostOf(head: string): string | undefined {
  const match = /\r?\nhost:[ \t]*([^\r\n]*)/i.exec(head);
  const host = match?.[1]?.trim();
  return host && PLAIN_HOST.test(host) ? host : undefined;
}

function plainHttpAnswer(host: string | undefined): string {
  const body = `This port speaks HTTPS: use ${host ? `https://${host}/` : 'https://'} instead of http://.\n`;
  return `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${SECURITY_HEADER_LINES}Connection: close\r\n\r\n${body}`;
}
