import { Type } from '@sinclair/typebox';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import type { PaymentMethod, PaymentMethodInput } from '../model.js';
import { PAYMENT_METHODS_PATH } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshPaymentMethod'),
  metadata: Type.Object({ name: Identifier, ownedByWorkspace: Identifier }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    amount: Type.Optional(Type.Number({ minimum: 0 })),
    expirationDate: Type.Optional(Type.String({ format: 'date' })),
    tags: Type.Optional(Tags),
  }),
});

/**
 * meshPaymentMethod v2 (OpenAPI): `metadata.{name, ownedByWorkspace}`, `spec.{displayName, amount?, expirationDate?, tags}`.
 * A deleted method stays readable (OpenAPI) and says so in `metadata.deletedOn`, beside `createdOn`, as
 * the Terraform provider decodes them.
 */
export const paymentMethodV2 = objectVersion('meshPaymentMethod', 'v2', {
  answer: {
    metadata: Echoed({ name: Identifier, ownedByWorkspace: Identifier, createdOn: DateTime, deletedOn: Type.Optional(DateTime) }),
    spec: Echoed({
      displayName: Type.String(),
      amount: Type.Optional(Type.Number()),
      expirationDate: Type.Optional(Type.String({ format: 'date' })),
      tags: Tags,
    }),
  },
  body: Body,
  decode: ({ metadata, spec }): PaymentMethodInput => ({
    name: metadata.name,
    ownedByWorkspace: metadata.ownedByWorkspace,
    ...(spec.expirationDate !== undefined ? { expirationDate: spec.expirationDate } : {}),
    document: sentObject(metadata, spec),
  }),
  encode: (method: PaymentMethod, view: RelationsView) => ({
    metadata: {
      ...method.document.metadata,
      name: method.name,
      ownedByWorkspace: method.ownedByWorkspace,
      createdOn: method.createdOn,
      ...(method.deletedOn ? { deletedOn: method.deletedOn } : {}),
    },
    spec: { ...method.document.spec, tags: method.document.spec.tags ?? {} },
    _links: objectLinks(view, PAYMENT_METHODS_PATH, method.name, {
      meshprojects: {
        rel: 'meshprojects',
        workspace: method.ownedByWorkspace,
        query: `?paymentIdentifier=${encodeURIComponent(method.name)}`,
      },
    }),
  }),
});
