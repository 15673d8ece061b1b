import { open } from 'node:fs/promises';

/** Flushes a file's data to disk (fdatasync, as SQLite syncs its WAL), off the event loop. */
export type SyncFile = (file: string) => Promise<void>;

/**
 * Opened for each sync, so a WAL file SQLite replaced (it deletes the WAL when the last connection
 * closes) is never mistaken for the current one: fdatasync flushes the file's inode whichever
 * descriptor wrote it.
 */
export const syncFile: SyncFile = async (file) => {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
};

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

  constructor(
    private readonly walFile: string,
    private readonly sync: SyncFile = syncFile,
  ) {}

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

  private startQueued(): Promise<void> {
    this.queued = undefined;
    return (this.running = this.start());
  }

  private start(): Promise<void> {
    const running = this.sync(this.walFile);
    const done = () => {
      if (this.running === running) this.running = undefined;
    };
    running.then(done, done);
    return running;
  }
}
