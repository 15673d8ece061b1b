import { sql, type Kysely } from 'kysely';

const SHARED = '98520496-627d-43e6-82da-ce499179ff3f';

/**
 * The shared runner `98520496-…` takes runs of every implementation type (ALL), as the original's run
 * controller that serves it registers itself: the Terraform provider names it for every version whose
 * `runnerRef` is omitted, GitHub, GitLab and Azure DevOps ones included. Only the runner as 0003 seeded
 * it changes; one an operator has changed since keeps its type.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await retype(db, 'TERRAFORM', 'ALL', 'Shared runner');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await retype(db, 'ALL', 'TERRAFORM', 'Shared Terraform runner');
}

async function retype(db: Kysely<unknown>, from: string, to: string, displayName: string): Promise<void> {
  const { rows } = await sql<{
    document: string;
  }>`select document from runners where uuid = ${SHARED} and implementation_type = ${from}`.execute(db);
  const [row] = rows;
  if (!row) return;
  const document = JSON.parse(row.document) as { spec: Record<string, unknown> };
  document.spec = { ...document.spec, implementationType: to, displayName };
  await sql`update runners set implementation_type = ${to}, document = ${JSON.stringify(document)} where uuid = ${SHARED}`.execute(db);
}
