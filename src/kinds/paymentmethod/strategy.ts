import type { Selectable } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import { isAdminFor } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import type { PaymentMethodTable } from '../../store/schema.js';
import { ownedByWorkspace, type CrudAccess } from '../crud/authorized-service.js';
import type { StoredRow } from '../crud/store.js';
import type { CrudStrategy } from '../crud/service.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Tags, TagTargetKind } from '../tagdefinition/model.js';
import { placeTags } from '../tagdefinition/model.js';
import { PAYMENT_METHOD_TITLES } from './events.js';
import type { PaymentMethod, PaymentMethodInput } from './model.js';
import { PAYMENT_METHOD_EVENTS } from './wire/index.js';

/** What a payment method's rules ask of other kinds. */
export interface PaymentMethodNeeds {
  /** 422 naming the field unless the workspace exists. */
  requireWorkspace(name: string, field: string): Promise<void>;
  /** The tags a write may store (the tag definitions' `enforce`). */
  enforceTags(ctx: RequestContext, targetKind: TagTargetKind, sent: unknown, previous: unknown, admin: boolean): Promise<Tags>;
}

function withoutUndefined(input: PaymentMethodInput): PaymentMethodInput {
  const { expirationDate, ...rest } = input;
  return expirationDate === undefined ? rest : { ...rest, expirationDate };
}

/**
 * A payment method's rules: its workspace must exist; its tags follow their definitions; a PUT
 * replaces it (a deleted one comes back to life). Deleting one only marks it (`deletedOn`): it stays
 * readable by name, leaves lists, and is refused (409) while a project names it.
 */
export const paymentMethodStrategy = (needs: PaymentMethodNeeds): CrudStrategy<PaymentMethod, PaymentMethodInput> => ({
  kind: 'meshPaymentMethod',
  reference: 'paymentMethod',
  table: {
    table: 'payment_methods',
    key: 'name',
    listed: { deleted_on: null },
    toRow: (method): StoredRow<PaymentMethodTable> => ({
      name: method.name,
      owned_by_workspace: method.ownedByWorkspace,
      expiration_date: method.expirationDate ?? null,
      deleted_on: method.deletedOn ?? null,
      document: serializeDocument(method.document),
    }),
    fromRow: (row: Selectable<PaymentMethodTable>) => ({
      name: row.name,
      ownedByWorkspace: row.owned_by_workspace,
      ...(row.expiration_date !== null ? { expirationDate: row.expiration_date } : {}),
      ...(row.deleted_on !== null ? { deletedOn: row.deleted_on } : {}),
      document: parseDocument(row.document),
    }),
  },
  events: {
    created: PAYMENT_METHOD_TITLES.paymentMethodCreated,
    changed: PAYMENT_METHOD_TITLES.paymentMethodChanged,
    deleted: PAYMENT_METHOD_TITLES.paymentMethodDeleted,
  },
  eventCodec: PAYMENT_METHOD_EVENTS,
  workspaceOf: (method) => method.ownedByWorkspace,
  describe: (method, change) => `Payment method ${method.name} was ${change}`,
  async admit(ctx, input, existing) {
    const admin = isAdminFor(ctx.principal, 'PAYMENTMETHOD', 'SAVE');
    const tags = await needs.enforceTags(ctx, 'meshPaymentMethod', input.document.spec.tags, existing?.document.spec.tags, admin);
    return { ...input, document: { ...input.document, spec: placeTags(input.document.spec, tags) } };
  },
  async validate(input, existing) {
    if (!existing) await needs.requireWorkspace(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
  },
  prepareForCreate: (input) => ({ ...withoutUndefined(input), createdOn: new Date().toISOString() }),
  prepareForUpdate: (existing, input) => ({ ...withoutUndefined(input), createdOn: existing.createdOn }),
  writeUnchanged: true,
  retire: (existing) => (existing.deletedOn ? undefined : { ...existing, deletedOn: new Date().toISOString() }),
  stillHeld: (name, holding) => `meshPaymentMethod ${name} is still used by ${holding}; assign them another payment method first`,
});

const byWorkspace = ownedByWorkspace<PaymentMethod, PaymentMethodInput>(
  'PAYMENTMETHOD',
  'owned_by_workspace',
  (method) => method.ownedByWorkspace,
);

/**
 * Payment methods as the caller sees them: its own workspace's (`PAYMENTMETHOD_LIST` lists them), or
 * all with an `ADM_PAYMENTMETHOD_*` code. Only admins write them (`ADM_PAYMENTMETHOD_SAVE/DELETE`:
 * there are no workspace-scoped write codes); the owning workspace of an existing method never changes.
 * The OpenAPI of the list's workspace filter: "the server will ignore this filter when the request
 * principal does not have permission to read payment methods in any workspace": a workspace-scoped
 * key lists its own.
 */
export const PAYMENT_METHOD_ACCESS: CrudAccess<PaymentMethod, PaymentMethodInput> = {
  ...byWorkspace,
  boundReplacesFilter: true,
  requireWrite(ctx, write) {
    if (write.op === 'update' && write.input.ownedByWorkspace !== write.existing.ownedByWorkspace)
      throw badRequest(
        `metadata.ownedByWorkspace: the payment method ${write.existing.name} belongs to meshWorkspace "${write.existing.ownedByWorkspace}" and cannot move to another`,
      );
    return byWorkspace.requireWrite(ctx, write);
  },
};
