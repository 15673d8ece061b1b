import { parseArgs } from 'node:util';
import { SYSTEM } from './auth/context.js';
import { loadIssuerCa } from './auth/oidc.js';
import type { Config } from './config.js';
import type { SecretBox } from './crypto/secret-box.js';
import { resealSecrets } from './crypto/secret-values.js';
import { createLoggers } from './logging.js';
import { createServices, openServiceDatabase } from './services.js';
import type { Database } from './store/database.js';
import { resealColumns, type ResealReport, type Resealing } from './store/reseal.js';
import { ADMIN_USAGE } from './admin-usage.js';

/** Rows per transaction of rotate-master-key. */
const DEFAULT_BATCH_SIZE = 200;

/**
 * Re-encrypts every sealed value (secrets in documents, signing keys, the keyring) under the current
 * master key, opening it with the current or a previous one (`BLOCKYARD_PREVIOUS_MASTER_KEYS`). Runs
 * beside serving instances in batches of `batchSize` rows, each in a transaction; running it again
 * does nothing more. Hashes are not touched: the hash key does not change with the master key.
 */
export async function rotateMasterKey(
  database: Database,
  secrets: SecretBox,
  options: { batchSize?: number; progress?: (line: string) => void } = {},
): Promise<ResealReport> {
  const reseal = (text: string, holds: 'sealed' | 'json'): Resealing => {
    if (holds === 'sealed') {
      if (secrets.isCurrent(text)) return { text: undefined, resealed: 0, unreadable: 0 };
      try {
        return { text: secrets.reencrypt(text), resealed: 1, unreadable: 0 };
      } catch {
        return { text: undefined, resealed: 0, unreadable: 1 };
      }
    }
    const { value, resealed, unreadable } = resealSecrets(JSON.parse(text) as unknown, secrets);
    return { text: resealed > 0 ? JSON.stringify(value) : undefined, resealed, unreadable };
  };
  return resealColumns(database.db, database.dialect, reseal, options.batchSize ?? DEFAULT_BATCH_SIZE, (column, report) =>
    options.progress?.(
      `${column.table}.${column.column}: ${report.values} values re-encrypted in ${report.rows} rows${report.unreadable.length > 0 ? `, ${report.unreadable.length} rows unreadable` : ''}\n`,
    ),
  );
}

/**
 * The SCIM base URL to give the identity system: under `BLOCKYARD_PUBLIC_URL`, else where the server
 * says it is without it (`https://localhost:<port>`, http/app.ts), with what to set when that is not
 * the address the identity system reaches.
 */
function scimBaseUrl(config: Config): string {
  if (config.publicUrl !== undefined) return `${config.publicUrl}/scim/v2`;
  const unset = 'set BLOCKYARD_PUBLIC_URL to the address the identity system reaches the server at';
  if (config.port === 0)
    return `the https:// address the server prints when it starts ("public URL"), followed by /scim/v2 (BLOCKYARD_PORT=0 picks the port at start; ${unset})`;
  return `https://localhost:${config.port}/scim/v2 (${unset})`;
}

/**
 * Operator commands against the configured database (the same services the server uses), for getting
 * credentials without the API. Secrets are printed once on stdout and never logged.
 */
export async function runAdminCommand(config: Config, argv: string[], out: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      permission: { type: 'string', multiple: true },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
      username: { type: 'string' },
      'batch-size': { type: 'string' },
    },
  });
  const { log } = createLoggers({ logLevel: 'warn' });
  const issuerCa = loadIssuerCa(config.oidc);
  const database = await openServiceDatabase(config, log);
  try {
    const services = await createServices(config, database, log, { issuerCa });
    switch (command) {
      case 'create-key': {
        if (!values.workspace) throw new Error('--workspace is required');
        const { key, secret } = await services.system.apiKeys.create(SYSTEM, {
          ownedByWorkspace: values.workspace,
          displayName: values.name ?? 'created by blockyard admin',
          permissions: values.permission ?? [],
          ...(values['expires-at'] ? { expiresAt: values['expires-at'] } : {}),
        });
        out(`client id:     ${key.uuid}\nclient secret: ${secret}\n`);
        return;
      }
      case 'list-keys': {
        const { items } = await services.system.apiKeys.list(values.workspace ? { workspace: values.workspace } : {}, {
          page: 0,
          size: 350,
        });
        for (const key of items) out(`${key.uuid}\t${key.ownedByWorkspace}\t${key.displayName}\t${key.permissions.join(',')}\n`);
        return;
      }
      case 'delete-key': {
        if (!positionals[0]) throw new Error('the client id is required');
        await services.system.apiKeys.delete(SYSTEM, positionals[0]);
        out(`deleted ${positionals[0]}\n`);
        return;
      }
      case 'create-user': {
        const password = process.env.BLOCKYARD_NEW_USER_PASSWORD;
        // The API's username and password rules apply (kinds/apiuser/model.ts); the service says which one failed.
        if (!values.username || !password) throw new Error('--username and BLOCKYARD_NEW_USER_PASSWORD are required');
        await services.system.apiUsers.create(SYSTEM, values.username, password);
        out(`created API user ${values.username}\n`);
        return;
      }
      case 'scim-token': {
        const [action, id] = positionals;
        const { scimTokens } = services.system;
        if (action === 'create') {
          const { token, secret } = await scimTokens.create(SYSTEM, values.name ?? 'SCIM provisioning');
          out(
            `SCIM token ${token.id} (${token.name}); SCIM provisioning is enabled\nbearer token (shown once): ${secret}\nSCIM base URL: ${scimBaseUrl(config)}\n`,
          );
          return;
        }
        if (action === 'list') {
          for (const token of await scimTokens.list()) out(`${token.id}\t${token.createdOn}\t${token.name}\n`);
          return;
        }
        if (action === 'delete') {
          if (!id) throw new Error('the SCIM token id is required');
          await scimTokens.delete(SYSTEM, id);
          out(`deleted SCIM token ${id}${(await scimTokens.enabled()) ? '' : '; no SCIM token is left: SCIM provisioning is disabled'}\n`);
          return;
        }
        throw new Error(`scim-token: create, list or delete\n${ADMIN_USAGE}`);
      }
      case 'rotate-signing-key': {
        const { tokens } = services.identity;
        const rotated = (await tokens.rotate('now'))!;
        const until = new Date(Date.now() + tokens.retiredKeyTrustMs()).toISOString();
        out(`new token signing key ${rotated.kid}; instances sign with it within 5 s\n`);
        if (rotated.retired.length > 0)
          out(`retired ${rotated.retired.join(', ')}: trusted and published until their tokens expired, at the latest ${until}\n`);
        return;
      }
      case 'rotate-master-key': {
        const batchSize = values['batch-size'] === undefined ? DEFAULT_BATCH_SIZE : Number(values['batch-size']);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
          throw new Error('--batch-size: a number of rows from 1 to 10000');
        const report = await rotateMasterKey(database, services.secrets, { batchSize, progress: out });
        out(`re-encrypted ${report.values} sealed values in ${report.rows} rows under master key ${services.secrets.keyId}\n`);
        if (report.unreadable.length > 0) {
          throw new Error(
            `${report.unreadable.length} rows hold values that no configured master key opens (left as they are; set BLOCKYARD_PREVIOUS_MASTER_KEYS to the key they were sealed under and run again):\n  ${report.unreadable.join('\n  ')}`,
          );
        }
        out('every sealed value is under the current master key: restart the instances without BLOCKYARD_PREVIOUS_MASTER_KEYS\n');
        return;
      }
      default:
        throw new Error(`unknown admin command "${command ?? ''}"\n${ADMIN_USAGE}`);
    }
  } finally {
    await database.close();
  }
}
