import type { Principal } from '../auth/principal.js';
import type { Services } from '../services.js';
import { decodeLocation } from '../kinds/location/wire.js';
import { decodePlatform } from '../kinds/platform/wire.js';
import { decodeProject } from '../kinds/project/wire.js';
import { tenantName } from '../kinds/tenant/model.js';
import { decodeTenant } from '../kinds/tenant/wire.js';
import { decodeWorkspace } from '../kinds/workspace/wire.js';
import { badRequest } from '../errors.js';
import { isUuid } from '../http/validation.js';
import { decodeDefinition } from '../kinds/definition/wire/definition-v1-preview.js';
import { decodeVersion } from '../kinds/definition/wire/version-v1-preview.js';

/**
 * The kinds the declarative import takes (spec §1), each with the versions it accepts and how one
 * object is created or updated by its identity. Later kinds add an entry here.
 */
export interface ImportableKind {
  kind: string;
  versions: readonly string[];
  /** `<kind>[<name>]`'s name, from the raw object before it is validated. */
  name(object: RawObject): string;
  /** Creates or updates the object as the principal; returns its name and what happened. */
  save(principal: Principal, object: RawObject): Promise<{ name: string; created: boolean }>;
}

export type RawObject = Record<string, unknown> & { metadata?: unknown; spec?: unknown };

const text = (value: unknown) => (typeof value === 'string' ? value : '?');
const field = (object: RawObject, part: 'metadata' | 'spec', key: string) => {
  const holder = object[part];
  return holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[key] : undefined;
};

export function importableKinds(services: Services): ImportableKind[] {
  const { workspaces, projects, locations, platforms, tenants, definitions } = services;
  return [
    {
      kind: 'meshWorkspace',
      versions: ['v2'],
      name: (object) => text(field(object, 'metadata', 'name')),
      save: async (principal, object) => {
        const { workspace, created } = await workspaces.save(principal, decodeWorkspace(object));
        return { name: workspace.name, created };
      },
    },
    {
      kind: 'meshProject',
      versions: ['v2'],
      name: (object) => text(field(object, 'metadata', 'name')),
      save: async (principal, object) => {
        const { project, created } = await projects.save(principal, decodeProject(object));
        return { name: project.name, created };
      },
    },
    {
      kind: 'meshLocation',
      versions: ['v1', 'v1-preview'],
      name: (object) => text(field(object, 'metadata', 'name')),
      save: async (principal, object) => {
        const { location, created } = await locations.save(principal, decodeLocation(object));
        return { name: location.name, created };
      },
    },
    {
      kind: 'meshPlatform',
      versions: ['v2', 'v2-preview'],
      name: (object) => text(field(object, 'metadata', 'name')),
      save: async (principal, object) => {
        const { platform, created } = await platforms.save(principal, decodePlatform(object).input);
        return { name: platform.name, created };
      },
    },
    {
      kind: 'meshTenant',
      versions: ['v4', 'v4-preview'],
      name: (object) => {
        const platformRef = field(object, 'spec', 'platformRef') as { uuid?: unknown } | undefined;
        const platform = field(object, 'spec', 'platformIdentifier') ?? platformRef?.uuid;
        return `${text(field(object, 'metadata', 'ownedByWorkspace'))}.${text(field(object, 'metadata', 'ownedByProject'))}.${text(platform)}`;
      },
      save: async (principal, object) => {
        const { tenant, created } = await tenants.save(principal, decodeTenant(object));
        return { name: tenantName(tenant), created };
      },
    },
    {
      // Imported definitions name their uuid, so importing the same file again updates them.
      kind: 'meshBuildingBlockDefinition',
      versions: ['v1-preview'],
      name: (object) => text(field(object, 'metadata', 'uuid')),
      save: async (principal, object) => {
        const { input, uuid } = decodeDefinition(object);
        if (uuid === undefined || !isUuid(uuid)) throw badRequest('metadata.uuid: an imported definition names its uuid');
        const { definition, created } = await definitions.save(principal, input, uuid);
        return { name: definition.uuid, created };
      },
    },
    {
      kind: 'meshBuildingBlockDefinitionVersion',
      versions: ['v1-preview'],
      name: (object) => {
        const ref = field(object, 'spec', 'buildingBlockDefinitionRef') as { uuid?: unknown } | undefined;
        return `${text(ref?.uuid)}.v${String(field(object, 'spec', 'versionNumber'))}`;
      },
      save: async (principal, object) => {
        const { version, created } = await definitions.saveVersion(principal, decodeVersion(object));
        return { name: `${version.definitionUuid}.v${version.spec.versionNumber}`, created };
      },
    },
  ];
}
