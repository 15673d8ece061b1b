import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What `pragma wal_checkpoint` answers: frames in the WAL, and how many of them are in the database file now. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export type CheckpointMode = 'PASSIVE' | 'RESTART' | 'TRUNCATE';

/**
 * The worker's code, evaluated as CommonJS (a file would have to exist beside the compiled, the tsx-run
 * and the bundled server alike). One connection of its own to the same file; each message is one
 * checkpoint. `synchronous=FULL` makes the checkpoint sync the database file before the WAL is reused.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { timeout: workerData.timeoutMs });
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
parentPort.on('message', ({ id, mode, close }) => {
  try {
    const [result] = db.pragma('wal_checkpoint(' + mode + ')');
    if (close) db.close();
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error), code: error && error.code });
  }
  if (close) parentPort.close();
});
`;

/**
 * Runs SQLite WAL checkpoints on a worker thread. Without it the writer checkpoints itself every
 * 1 000 WAL pages (`wal_autocheckpoint`), inside the commit that crosses the threshold: copying the
 * WAL into the database file and syncing it, on the event loop, while every write waits. The writer
 * switches that off and leaves the copying to this thread's connection.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(result: CheckpointResult): void; reject(error: Error): void }>();
  private readonly exited: Promise<void>;
  private nextId = 0;
  private closed = false;

  constructor(file: string, timeoutMs: number) {
    this.worker = new Worker(WORKER, {
      eval: true,
      // The worker needs none of the server's loaders (tsx): it runs plain CommonJS.
      execArgv: [],
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, timeoutMs },
    });
    // Idle, the thread keeps no process alive (one ending without close() leaves the WAL to the next
    // open's recovery); while a checkpoint is asked for, the answer is awaited.
    this.worker.unref();
    this.worker.on('message', ({ id, result, error, code }: { id: number; result?: CheckpointResult; error?: string; code?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
      if (!waiting) return;
      if (error === undefined) waiting.resolve(result!);
      else waiting.reject(Object.assign(new Error(`WAL checkpoint: ${error}`), { code }));
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.failAll(new Error('the WAL checkpoint thread ended'));
        resolve();
      }),
    );
  }

  checkpoint(mode: CheckpointMode): Promise<CheckpointResult> {
    return this.send(mode, false);
  }

  /** A last TRUNCATE checkpoint, then the thread ends. */
  async close(): Promise<void> {
    if (this.closed) return this.exited;
    try {
      await this.send('TRUNCATE', true);
    } finally {
      this.closed = true;
      this.worker.ref();
      await this.exited;
    }
  }

  private send(mode: CheckpointMode, close: boolean): Promise<CheckpointResult> {
    if (this.closed) return Promise.reject(new Error('the WAL checkpoint thread is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, mode, close });
    });
  }

  private failAll(error: Error): void {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
