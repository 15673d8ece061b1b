import { parseArgs } from 'node:util';
import { SYSTEM } from './auth/context.js';
import type { Config } from './config.js';
import { createLogger } from './logging.js';
import { createServices } from './services.js';
import { openDatabase } from './store/database.js';

export const ADMIN_USAGE = `usage:
  blockyard admin create-key --workspace <id> --permission <CODE> [--permission <CODE> ...] [--name <display name>] [--expires-at <date>]
  blockyard admin list-keys [--workspace <id>]
  blockyard admin delete-key <client id>
  blockyard admin create-user --username <name>      (password read from BLOCKYARD_NEW_USER_PASSWORD)
  blockyard admin rotate-signing-key                  (a new token signing key now; the old ones are trusted until their tokens expire)`;

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
    },
  });
  const log = createLogger({ ...config, logLevel: 'warn' });
  const database = await openDatabase(config, log);
  try {
    const services = await createServices(config, database, log);
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
        const { items } = await services.system.apiKeys.list(values.workspace ? { workspace: values.workspace } : {}, { page: 0, size: 350 });
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
      case 'rotate-signing-key': {
        const { tokens } = services.identity;
        const rotated = (await tokens.rotate('now'))!;
        const until = new Date(Date.now() + tokens.retiredKeyTrustMs()).toISOString();
        out(`new token signing key ${rotated.kid}; instances sign with it within 5 s\n`);
        if (rotated.retired.length > 0) out(`retired ${rotated.retired.join(', ')}: trusted and published until their tokens expired, at the latest ${until}\n`);
        return;
      }
      default:
        throw new Error(`unknown admin command "${command ?? ''}"\n${ADMIN_USAGE}`);
    }
  } finally {
    await database.close();
  }
}
