import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GeneratedAdminKey } from './auth/bootstrap.js';

/** Where a generated admin key is also written: the data directory, readable by its owner only. */
export const GENERATED_KEY_FILE = 'generated-admin-key.txt';

/**
 * The generated admin key, last of everything a start prints (after every log line), in a frame that
 * stands out of the log; and in a 0600 file beside the data, for whoever missed the terminal.
 */
export function announceGeneratedKey(key: GeneratedAdminKey, dataDir: string, print: (text: string) => void): void {
  const file = path.join(dataDir, GENERATED_KEY_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(
    file,
    `# Blockyard: the admin API key generated at its first start (${new Date().toISOString()}).\n# Store it in a password manager or secret store, then delete this file: whoever reads it administers Blockyard.\nclient id:     ${key.clientId}\nclient secret: ${key.clientSecret}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600); // an older file keeps its mode on overwrite
  const lines = [
    'Generated admin API key: shown once, store it now.',
    '',
    `  client id:     ${key.clientId}`,
    `  client secret: ${key.clientSecret}`,
    '',
    `Also written to ${file} (mode 0600):`,
    'delete that file once the key is stored elsewhere.',
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  print(`\n${rule}\n${lines.map((line) => `| ${line.padEnd(width)} |`).join('\n')}\n${rule}\n\n`);
}
