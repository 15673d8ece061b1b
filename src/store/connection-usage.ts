/**
 * How the database's connections are used right now (the metrics read it at each scrape): PostgreSQL's
 * pool, or SQLite's one writer that every transaction takes its turn on (reads need no turn there).
 */
export interface ConnectionUsage {
  /** Connections that may be open at most (the pool's size; 1 for SQLite's writer). */
  max: number;
  /** Connections open now. */
  open: number;
  /** Connections handed out now (running a query or holding a transaction). */
  inUse: number;
  /** Queries and transactions waiting for a connection (the writer) to be free. */
  waiting: number;
}
