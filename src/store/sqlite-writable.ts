import { accessSync, constants } from 'node:fs';
import { ConfigError } from '../config.js';

/**
 * SQLite must be able to write its data directory, database file and write-ahead log (item
 * 3). A read-only volume or file stops the start with one line naming BLOCKYARD_DATA_DIR and the
 * cause, not with a stack from deep inside SQLite ("unable to open database file").
 */
export function assertSqliteWritable(dataDir: string, file: string): void {
  for (const target of [dataDir, file, `${file}-wal`, `${file}-shm`]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      if (target !== dataDir && (error as NodeJS.ErrnoException).code === 'ENOENT') continue; // created on first start
      throw new ConfigError('BLOCKYARD_DATA_DIR', `the data directory and its SQLite files must be writable: ${(error as Error).message}`);
    }
  }
}
