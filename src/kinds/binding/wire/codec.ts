import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, KindOf, ObjectAnswer } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { checkedUsername } from '../../user/wire/v2.js';
import { selfLink } from '../../wire-helpers.js';
import { BINDING_SHAPES, type Binding, type BindingInput, type BindingKind } from '../model.js';

/** Binding names: letters, digits, `.`, `_`, `-`, `@`, starting and ending with a letter or digit (UUIDs and free names fit). */
export const BINDING_NAME = Type.String({ pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._@-]*[A-Za-z0-9])?$', maxLength: 255 });

const Named = (schema: ReturnType<typeof Type.String>) => Type.Object({ name: schema });

/** The last day a binding holds (the Terraform provider's `expiry_date`, an ISO 8601 date). */
const ExpiryDate = Type.String({ format: 'date' });

/** A group subject's name is a group identifier; a user subject's a username (checked after decoding). */
const subjectSchema = Type.String({ minLength: 1, maxLength: 1024 });

export interface BindingCodec {
  readonly media: { kind: string; version: string };
  readonly schema: TSchema;
  readonly bodySchema: TSchema;
  /** One binding (the REST body), or several (the import's older `subjects[]` forms). */
  decodeAll(body: unknown): BindingInput[];
  encode(binding: Binding, view: EncodeView): { _links: { self: { href: string } } };
}

function checkedSubject(kind: BindingKind, name: string, field: string): string {
  if (BINDING_SHAPES[kind].subject === 'user') return checkedUsername(name, field);
  return compileDecoder(Identifier)(name, field);
}

/**
 * The binding forms of the current versions (workspace bindings v2, project bindings v3):
 * `metadata.name`, `roleRef.name`, `targetRef.name` (+ `ownedByWorkspace` for projects), `subject.name`.
 */
export function bindingCodec(kind: BindingKind, version: string): BindingCodec {
  const { level, path } = BINDING_SHAPES[kind];
  const project = level === 'project';
  const body = Type.Object({
    kind: KindOf(kind),
    metadata: Type.Object({ name: BINDING_NAME }),
    roleRef: Named(Type.String({ minLength: 1, maxLength: 255 })),
    targetRef: project ? Type.Object({ name: Identifier, ownedByWorkspace: Identifier }) : Type.Object({ name: Identifier }),
    subject: Named(subjectSchema),
    expiryDate: Type.Optional(ExpiryDate),
  });
  const decodeBody = compileDecoder(body);
  const target = { name: Identifier, displayName: Type.Optional(Type.String()), ...(project ? { ownedByWorkspace: Identifier } : {}) };
  return {
    media: { kind: kind.toLowerCase(), version },
    schema: ObjectAnswer(version, kind, {
      metadata: Type.Object({ name: Type.String() }),
      roleRef: Type.Object({ name: Type.String() }),
      targetRef: Type.Object(target),
      subject: Type.Object({ name: Type.String() }),
      expiryDate: Type.Optional(ExpiryDate),
    }),
    bodySchema: body,
    decodeAll(body) {
      const decoded = decodeBody(body);
      const target = decoded.targetRef as { name: string; ownedByWorkspace?: string };
      return [
        {
          kind,
          name: decoded.metadata.name,
          workspace: project ? target.ownedByWorkspace! : target.name,
          ...(project ? { project: target.name } : {}),
          role: decoded.roleRef.name,
          subject: checkedSubject(kind, decoded.subject.name, 'subject.name'),
          ...(decoded.expiryDate !== undefined ? { expiryDate: decoded.expiryDate } : {}),
        },
      ];
    },
    encode(binding, view) {
      return {
        apiVersion: version,
        kind,
        metadata: { name: binding.name },
        roleRef: { name: binding.role },
        targetRef: project
          ? { name: binding.project!, displayName: binding.targetDisplayName, ownedByWorkspace: binding.workspace }
          : { name: binding.workspace, displayName: binding.targetDisplayName },
        subject: { name: binding.subject },
        ...(binding.expiryDate !== undefined ? { expiryDate: binding.expiryDate } : {}),
        _links: selfLink(view, path, binding.name),
      };
    },
  };
}

/**
 * The import's older forms (workspace user bindings v1, project bindings v2): no `metadata.name`,
 * `subjects[]` instead of `subject`. Each subject is one binding, named by a digest of kind, target,
 * role and subject, so importing the same object again finds the same bindings.
 */
export function subjectsCodec(
  kind: BindingKind,
  version: string,
): Pick<BindingCodec, 'decodeAll'> & { media: { kind: string; version: string } } {
  const project = BINDING_SHAPES[kind].level === 'project';
  const decodeBody = compileDecoder(
    Type.Object({
      kind: KindOf(kind),
      roleRef: Named(Type.String({ minLength: 1, maxLength: 255 })),
      targetRef: project ? Type.Object({ name: Identifier, ownedByWorkspace: Identifier }) : Type.Object({ name: Identifier }),
      subjects: Type.Array(Named(subjectSchema), { minItems: 1, maxItems: 1000 }),
    }),
  );
  return {
    media: { kind: kind.toLowerCase(), version },
    decodeAll(body) {
      const decoded = decodeBody(body);
      const target = decoded.targetRef as { name: string; ownedByWorkspace?: string };
      const workspace = project ? target.ownedByWorkspace! : target.name;
      return decoded.subjects.map((subject, index) => {
        const name = checkedSubject(kind, subject.name, `subjects[${index}].name`);
        const digest = createHash('sha256')
          .update(JSON.stringify([kind, workspace, project ? target.name : null, decoded.roleRef.name, name]))
          .digest('hex');
        return {
          kind,
          name: `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`,
          workspace,
          ...(project ? { project: target.name } : {}),
          role: decoded.roleRef.name,
          subject: name,
        };
      });
    },
  };
}
