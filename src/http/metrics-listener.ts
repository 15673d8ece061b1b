import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ServerMetrics } from '../metrics/server-metrics.js';

export interface MetricsListener {
  /** `http://<host>:<port>/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics on a port of their own (`BLOCKYARD_METRICS_PORT`), in plain HTTP without credentials,
 * for a Prometheus server on a private network: it answers `GET /metrics` and 404 to anything else.
 * No credential travels and nothing is changed through it; what it shows (traffic per route, queue
 * depths, counts of failed sign-ins) is the operator's, which is why it binds to 127.0.0.1 unless
 * `BLOCKYARD_METRICS_HOST` names another interface (docs/metrics.md, "Security").
 */
export async function listenForMetrics(host: string, port: number, metrics: ServerMetrics, log: Logger): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: this port serves GET /metrics only\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        log.warn({ err: error }, 'collecting the metrics failed');
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('collecting the metrics failed (see the server log)\n');
      },
    );
  });
  // A scraper that stalls cannot hold connections: one scrape takes milliseconds.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) =>
      reject(
        new Error(
          `the metrics listener cannot listen on ${host}:${port} (BLOCKYARD_METRICS_HOST, BLOCKYARD_METRICS_PORT): ${error.message}`,
        ),
      );
    server.once('error', refused);
    server.listen({ host, port }, () => {
      server.off('error', refused);
      resolve();
    });
  });
  server.on('error', (error) => log.warn({ err: error }, 'the metrics listener failed'));
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
