import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, Links, NonEmptyShortString, Tags } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
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
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  apiVersion: Type.Literal('v2'),
  kind: Type.Literal('meshPaymentMethod'),
  metadata: Echoed({ name: Identifier, ownedByWorkspace: Identifier, createdOn: DateTime, deletedOn: Type.Optional(DateTime) }),
  spec: Echoed({
    displayName: Type.String(),
    amount: Type.Optional(Type.Number()),
    expirationDate: Type.Optional(Type.String({ format: 'date' })),
    tags: Tags,
  }),
  _links: Links,
});

/**
 * meshPaymentMethod v2 (OpenAPI): `metadata.{name, ownedByWorkspace}`, `spec.{displayName, amount?, expirationDate?, tags}`.
 * A deleted method stays readable (OpenAPI) and says so in `metadata.deletedOn`, beside `createdOn`, as
 * the Terraform provider decodes them.
 */
export const paymentMethodV2 = {
  media: { kind: 'meshpaymentmethod', version: 'v2' } as const,
  schema: Answer,
  bodySchema: Body,
  decode(body: unknown): PaymentMethodInput {
    const { metadata, spec } = decodeBody(body);
    return {
      name: metadata.name,
      ownedByWorkspace: metadata.ownedByWorkspace,
      ...(spec.expirationDate !== undefined ? { expirationDate: spec.expirationDate } : {}),
      document: sentObject(metadata, spec),
    };
  },
  encode(method: PaymentMethod, view: RelationsView) {
    const { baseUrl } = view;
    return {
      apiVersion: 'v2',
      kind: 'meshPaymentMethod',
      metadata: {
        ...method.document.metadata,
        name: method.name,
        ownedByWorkspace: method.ownedByWorkspace,
        createdOn: method.createdOn,
        ...(method.deletedOn ? { deletedOn: method.deletedOn } : {}),
      },
      spec: { ...method.document.spec, tags: method.document.spec.tags ?? {} },
      _links: {
        self: { href: objectUrl(baseUrl, PAYMENT_METHODS_PATH, method.name) },
        ...relatedLinks(view, {
          meshprojects: {
            rel: 'meshprojects',
            workspace: method.ownedByWorkspace,
            query: `?paymentIdentifier=${encodeURIComponent(method.name)}`,
          },
        }),
      },
    };
  },
};
