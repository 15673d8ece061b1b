import { closeSync, fdatasync, openSync } from 'node:fs';

/** A file whose written data can be flushed to disk. */
export interface SyncableFile {
  /** Resolves once the file's data is on disk (fdatasync, as SQLite syncs its WAL), off the event loop. */
  sync(): Promise<void>;
  close(): void;
}

/**
 * The WAL file, opened once: SQLite deletes (and later recreates) the WAL only when the last
 * connection to the database closes, and the server's reader connection stays open as long as the
 * writer does. fdatasync flushes the file whichever descriptor wrote it.
 */
export class WalFile implements SyncableFile {
  private fd: number | undefined;

  constructor(private readonly path: string) {}

  sync(): Promise<void> {
    return new Promise((resolve, reject) => {
      const fd = (this.fd ??= openSync(this.path, 'r')); // a throw here rejects
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * The WAL's fsync, on libuv's thread pool instead of inside SQLite's commit on the event loop.
 *
 * The writer runs with `synchronous=NORMAL`: a commit writes its frames to the WAL (the page cache)
 * and returns at once; `synced()` then resolves once an fsync that began after that commit has
 * finished, so an acknowledgement waits for the disk exactly as `synchronous=FULL` made it wait —
 * while the event loop serves other requests. Syncs run one at a time; every commit made while one
 * runs waits for the next, one fsync for all of them (the group commit at the disk's pace).
 */
export class WalSync {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly wal: SyncableFile) {}

  /** Resolves once everything written to the WAL before this call is on disk; rejects if the sync failed. */
  synced(): Promise<void> {
    if (!this.running) return (this.running = this.start());
    // The running sync may have begun before this commit's frames were written: wait for the next.
    return (this.queued ??= this.running.then(
      () => this.startQueued(),
      () => this.startQueued(),
    ));
  }

  /** Resolves once every commit made so far is on disk (at once if none waits). */
  settled(): Promise<void> {
    return (this.queued ?? this.running ?? Promise.resolve()).catch(() => undefined);
  }

  /** Once every commit so far is on disk: the WAL file is let go. */
  async close(): Promise<void> {
    await this.settled();
    this.wal.close();
  }

  private startQueued(): Promise<void> {
    this.queued = undefined;
    return (this.running = this.start());
  }

  private start(): Promise<void> {
    const running = this.wal.sync();
    const done = () => {
      if (this.running === running) this.running = undefined;
    };
    running.then(done, done);
    return running;
  }
}
