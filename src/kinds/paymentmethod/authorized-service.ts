import type { RequestContext } from '../../auth/context.js';
import { unprocessable } from '../../lib/errors.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import { isExpired, type PaymentMethod, type PaymentMethodInput } from './model.js';
import { PAYMENT_METHOD_ACCESS } from './strategy.js';

/** Payment methods as callers reach them (PAYMENT_METHOD_ACCESS), and as projects name them. */
export class AuthorizedPaymentMethodService extends AuthorizedCrudService<PaymentMethod, PaymentMethodInput> {
  constructor(inner: CrudService<PaymentMethod, PaymentMethodInput>) {
    super(inner, PAYMENT_METHOD_ACCESS, { kind: 'meshPaymentMethod', noun: 'payment method', idOfInput: (input) => input.name });
  }

  /**
   * A project names a payment method (`field`) for a project of `workspace`: it must be a live method of
   * that workspace (422 otherwise); a new assignment of an expired one is refused (422), an unchanged
   * one is kept (the substitute pays meanwhile, see `activePaymentMethod`).
   */
  async resolveForProject(ctx: RequestContext, name: string, workspace: string, field: string, unchanged: boolean): Promise<PaymentMethod> {
    const method = await this.find(ctx, name);
    if (!method || method.deletedOn || method.ownedByWorkspace !== workspace)
      throw unprocessable(`${field}: meshPaymentMethod "${name}" does not exist in meshWorkspace "${workspace}"`);
    if (!unchanged && isExpired(method)) throw unprocessable(`${field}: meshPaymentMethod "${name}" expired on ${method.expirationDate}`);
    return method;
  }
}
