import type { RequestContext } from '../auth/context.js';
import { badRequest } from '../lib/errors.js';
import { isUuid } from '../lib/validation.js';
import type { Codec, CodecRegistry } from '../kinds/codec.js';
import { BINDING_CODECS, IMPORT_ONLY_BINDING_CODECS } from '../kinds/binding/wire/index.js';
import { isCollectedKind, requireHoldable, type ObjectCollection } from '../kinds/collection/model.js';
import { DEFINITION_CODECS, VERSION_CODECS } from '../kinds/definition/wire/index.js';
import { LOCATION_CODECS } from '../kinds/location/wire/index.js';
import { PAYMENT_METHOD_CODECS } from '../kinds/paymentmethod/wire/index.js';
import { PLATFORM_CODECS } from '../kinds/platform/wire/index.js';
import { PROJECT_CODECS } from '../kinds/project/wire/index.js';
import { SERVICE_INSTANCE_CODECS } from '../kinds/serviceinstance/wire/index.js';
import type { AuthorizedServices } from '../kinds/services.js';
import { tenantName } from '../kinds/tenant/model.js';
import { TENANT_CODECS } from '../kinds/tenant/wire/index.js';
import { USER_CODECS } from '../kinds/user/wire/index.js';
import { USER_GROUP_CODECS } from '../kinds/usergroup/wire/index.js';
import { WORKSPACE_CODECS } from '../kinds/workspace/wire/index.js';

export type RawObject = Record<string, unknown> & { metadata?: unknown; spec?: unknown };

/**
 * A kind the declarative import takes (spec §1): how one object is named and created or updated by
 * its identity. The versions it takes are its kind's codecs, so a new codec is importable at once.
 */
export interface ImportableKind {
  kind: string;
  versions: readonly string[];
  /** `<kind>[<name>]`'s name, from the raw object before it is validated. */
  name(object: RawObject): string;
  /**
   * Creates or updates the object as the caller; returns its name (several, comma-separated, for an
   * object that is several bindings) and what happened. `collection`: the meshObjectCollection the
   * import fills (kinds with declarative deletion mark their objects with it, once its owner may hold
   * them; others ignore it).
   */
  save(ctx: RequestContext, object: RawObject, version: string, collection?: ObjectCollection): Promise<{ name: string; created: boolean }>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '?');
const field = (object: RawObject, part: 'metadata' | 'spec', key: string) => {
  const holder = object[part];
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[key] : undefined;
};
const metadataName = (object: RawObject) => text(field(object, 'metadata', 'name'));

/** One importable kind from its codecs: decode with the object's version, then save the decoded value. */
function importable<D>(
  codecs: CodecRegistry<Codec<never, never> & { decode(body: unknown): D }>,
  name: (object: RawObject) => string,
  save: (ctx: RequestContext, decoded: D, collection?: ObjectCollection) => Promise<{ name: string; created: boolean }>,
): ImportableKind {
  return {
    kind: codecs.kind,
    versions: codecs.media.map((media) => media.version),
    name,
    save: (ctx, object, version, collection) => save(ctx, codecs.of(version).decode(object), collection),
  };
}

export function importableKinds(services: AuthorizedServices): ImportableKind[] {
  const { workspaces, projects, locations, platforms, tenants, definitions, users, userGroups, bindings } = services;
  // Bindings: the REST version and the import's older `subjects[]` forms; each subject is one binding.
  const bindingKinds = Object.values(bindings).map((service): ImportableKind => {
    const codecs = [BINDING_CODECS[service.kind], ...IMPORT_ONLY_BINDING_CODECS[service.kind]];
    return {
      kind: service.kind,
      versions: codecs.map((codec) => codec.media.version),
      name: (object) => {
        const named = field(object, 'metadata', 'name');
        if (typeof named === 'string') return named;
        const target = object.targetRef as { name?: unknown; ownedByWorkspace?: unknown } | undefined;
        return [target?.ownedByWorkspace, target?.name].filter((part) => typeof part === 'string').join('.') || '?';
      },
      save: async (ctx, object, version, collection) => {
        const inputs = codecs.find((codec) => codec.media.version === version)!.decodeAll(object);
        const collected = isCollectedKind(service.kind) ? collection : undefined;
        if (collected)
          for (const input of inputs) requireHoldable(collected, service.kind, input.workspace, `${service.kind}[${input.name}]`);
        const saved = [];
        for (const input of inputs) saved.push(await service.save(ctx, input, collected?.name));
        return { name: saved.map((s) => s.binding.name).join(','), created: saved.some((s) => s.created) };
      },
    };
  });
  return [
    ...bindingKinds,
    importable(WORKSPACE_CODECS, metadataName, async (ctx, input) => {
      const { workspace, created } = await workspaces.save(ctx, input);
      return { name: workspace.name, created };
    }),
    importable(USER_CODECS, metadataName, async (ctx, input) => {
      const { user, created } = await users.save(ctx, input.username, input);
      return { name: user.username, created };
    }),
    importable(
      USER_GROUP_CODECS,
      (object) => `${text(field(object, 'metadata', 'ownedByWorkspace'))}.${metadataName(object)}`,
      async (ctx, input, collection) => {
        if (collection)
          requireHoldable(
            collection,
            'meshWorkspaceUserGroup',
            input.workspace,
            `meshWorkspaceUserGroup[${input.workspace}.${input.name}]`,
          );
        const { group, created } = await userGroups.save(ctx, input, collection?.name);
        return { name: `${group.workspace}.${group.name}`, created };
      },
    ),
    // meshPaymentMethod v2: the notes' import table lists it.
    importable(PAYMENT_METHOD_CODECS, metadataName, async (ctx, input) => {
      const { method, created } = await services.paymentMethods.save(ctx, input.name, input);
      return { name: method.name, created };
    }),
    importable(PROJECT_CODECS, metadataName, async (ctx, input) => {
      const { project, created } = await projects.save(ctx, input);
      return { name: project.name, created };
    }),
    // meshServiceInstance v2 (the notes' import table); v1 is retired (IMPORT_LIFECYCLE).
    importable(
      SERVICE_INSTANCE_CODECS,
      (object) => text(field(object, 'metadata', 'instanceId')),
      async (ctx, input) => {
        const { instance, created } = await services.serviceInstances.save(ctx, input);
        return { name: instance.instanceId, created };
      },
    ),
    importable(LOCATION_CODECS, metadataName, async (ctx, input) => {
      const { location, created } = await locations.save(ctx, input);
      return { name: location.name, created };
    }),
    importable(PLATFORM_CODECS, metadataName, async (ctx, { input }) => {
      const { platform, created } = await platforms.save(ctx, input);
      return { name: platform.name, created };
    }),
    importable(
      TENANT_CODECS,
      (object) => {
        const platformRef = field(object, 'spec', 'platformRef') as { uuid?: unknown } | undefined;
        const platform =
          field(object, 'spec', 'platformIdentifier') ?? field(object, 'metadata', 'platformIdentifier') ?? platformRef?.uuid;
        return `${text(field(object, 'metadata', 'ownedByWorkspace'))}.${text(field(object, 'metadata', 'ownedByProject'))}.${text(platform)}`;
      },
      async (ctx, input) => {
        const { tenant, created } = await tenants.save(ctx, input);
        return { name: tenantName(tenant), created };
      },
    ),
    // Imported definitions name their uuid, so importing the same file again updates them.
    importable(
      DEFINITION_CODECS,
      (object) => text(field(object, 'metadata', 'uuid')),
      async (ctx, { input, uuid }) => {
        if (uuid === undefined || !isUuid(uuid)) throw badRequest('metadata.uuid: an imported definition names its uuid');
        const { definition, created } = await definitions.save(ctx, input, uuid);
        return { name: definition.uuid, created };
      },
    ),
    importable(
      VERSION_CODECS,
      (object) => {
        const ref = field(object, 'spec', 'buildingBlockDefinitionRef') as { uuid?: unknown } | undefined;
        return `${text(ref?.uuid)}.v${String(field(object, 'spec', 'versionNumber'))}`;
      },
      async (ctx, { definitionUuid, spec }) => {
        const { version, created } = await definitions.saveVersion(ctx, definitionUuid, spec);
        return { name: `${version.definitionUuid}.v${version.spec.versionNumber}`, created };
      },
    ),
  ];
}
