import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CredentialScheme } from '../auth/authenticate.js';
import type { ConnectionUsage } from '../store/connection-usage.js';
import type { TransactionWaits } from '../store/transaction.js';

/** What the gauges read at each scrape: given once storage, the event feed and the services exist. */
export interface MetricSources {
  connections(): ConnectionUsage;
  /** Open event streams of this process. */
  streams(): number;
  streamLag(): Promise<{ positions: number; seconds: number }>;
  waitingRuns(): Promise<{ runner: string; waiting: number }[]>;
  /** A gauge whose reading failed keeps its last value; the failure is reported here. */
  onError(what: string, error: unknown): void;
}

/** One series of the request metrics, resolved once per route, method and status. */
export interface RequestSeries {
  observe(seconds: number): void;
}

/** Request latencies: from a fraction of a millisecond (cached reads) to the request timeout. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Waits for a connection or the writer: usually none, under contention up to the database timeout. */
const WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The server's Prometheus metrics (docs/metrics.md), in a registry of its own: several servers in one
 * process (the tests) each count their own. Counters and histograms are fed as things happen; the
 * gauges are read from their sources when scraped, so an idle server does no metrics work at all.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status_code'>;
  private readonly durations: Histogram<'method' | 'route' | 'status_code'>;
  private readonly authFailures: Counter<'scheme'>;
  private readonly transactionWait: Histogram;
  private sources: MetricSources | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'blockyard_' });
    const requestLabels = ['method', 'route', 'status_code'] as const;
    this.requests = new Counter({
      name: 'blockyard_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: requestLabels,
      registers,
    });
    this.durations = new Histogram({
      name: 'blockyard_http_request_duration_seconds',
      help: 'Time from receiving a request to having answered it, by method, route template and status code',
      labelNames: requestLabels,
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.authFailures = new Counter({
      name: 'blockyard_auth_failures_total',
      help: 'Credentials refused (wrong, expired, revoked or malformed), by how they were presented',
      labelNames: ['scheme'],
      registers,
    });
    this.transactionWait = new Histogram({
      name: 'blockyard_db_transaction_wait_seconds',
      help: 'Time a transaction waited before it began: for a pooled connection (PostgreSQL) or the single writer (SQLite)',
      buckets: WAIT_BUCKETS,
      registers,
    });

    const usage = (read: (usage: ConnectionUsage) => number) =>
      function (this: Gauge, sources: MetricSources) {
        this.set(read(sources.connections()));
      };
    this.gauge(
      'blockyard_db_pool_max_connections',
      'Connections the database pool may open (1 on SQLite: the writer)',
      usage((u) => u.max),
    );
    this.gauge(
      'blockyard_db_pool_connections',
      'Database connections open',
      usage((u) => u.open),
    );
    this.gauge(
      'blockyard_db_pool_connections_in_use',
      'Database connections handed out (a query or transaction runs on them)',
      usage((u) => u.inUse),
    );
    this.gauge(
      'blockyard_db_pool_waiting',
      'Queries and transactions waiting for a database connection (on SQLite: for the writer)',
      usage((u) => u.waiting),
    );
    this.gauge('blockyard_event_streams_open', 'Event streams (Server-Sent Events) open on this instance', function (sources) {
      this.set(sources.streams());
    });
    const lag = { positions: 0, seconds: 0 };
    let lagRead: Promise<void> | undefined;
    // Both lag gauges come from one reading per scrape.
    const readLag = (sources: MetricSources) =>
      (lagRead ??= sources
        .streamLag()
        .then((now) => {
          Object.assign(lag, now);
        })
        .catch((error: unknown) => sources.onError('event stream lag', error))
        .finally(() => setImmediate(() => (lagRead = undefined))));
    this.gauge(
      'blockyard_event_stream_lag_events',
      'Event positions between the newest event and the last one handed to the slowest open stream',
      async function (sources) {
        await readLag(sources);
        this.set(lag.positions);
      },
    );
    this.gauge(
      'blockyard_event_stream_lag_seconds',
      'Age of the oldest event the slowest open stream has not been handed yet (0: every stream is up to date)',
      async function (sources) {
        await readLag(sources);
        this.set(lag.seconds);
      },
    );
    this.gauge(
      'blockyard_runs_waiting',
      'Runs waiting to be claimed, per runner (runner uuid)',
      async function (sources) {
        try {
          const counts = await sources.waitingRuns();
          this.reset();
          for (const { runner, waiting } of counts) this.set({ runner }, waiting);
        } catch (error) {
          sources.onError('waiting runs', error);
        }
      },
      ['runner'],
    );
  }

  /** The observer the store is given: every transaction's wait before its BEGIN. */
  readonly transactions: TransactionWaits = { waited: (seconds) => this.transactionWait.observe(seconds) };

  /** A credential was refused. */
  readonly authFailed = (scheme: CredentialScheme): void => {
    this.authFailures.inc({ scheme });
  };

  /** Where the gauges read from (set once the server's parts exist; until then they stay at 0). */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /**
   * The counter and histogram of one route template, method and status code, bound together. A
   * `streaming` route's answers (event streams) are counted only: their duration is how long a client
   * followed, no latency (blockyard_event_streams_open shows them).
   */
  requestSeries(method: string, route: string, statusCode: number, streaming = false): RequestSeries {
    const labels = { method, route, status_code: String(statusCode) };
    const count = this.requests.labels(labels);
    if (streaming) return { observe: () => count.inc() };
    const duration = this.durations.labels(labels);
    return {
      observe: (seconds) => {
        count.inc();
        duration.observe(seconds);
      },
    };
  }

  /** The exposition in the Prometheus text format, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private gauge(
    name: string,
    help: string,
    read: (this: Gauge, sources: MetricSources) => void | Promise<void>,
    labelNames: string[] = [],
  ): void {
    const sourcesNow = () => this.sources;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        const sources = sourcesNow();
        return sources ? read.call(this, sources) : undefined;
      },
    });
  }
}
