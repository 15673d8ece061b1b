import { Type } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { compileDecoder } from '../../../http/validation.js';
import { KindOf } from '../../../http/wire-schemas.js';
import type { DefinitionVersion } from '../model.js';
import { VersionSpecSchema, type VersionSpec } from './version-schema.js';

/** meshBuildingBlockDefinitionVersion v1-preview (COMPAT §8). */
export const DEFINITION_VERSION_VERSIONS = [{ kind: 'meshbuildingblockdefinitionversion', version: 'v1-preview' }] as const;
export const DEFINITION_VERSIONS_PATH = '/api/meshobjects/meshbuildingblockdefinitionversions';

// `metadata.uuid: ""` and `createdOn: ""` (TF) are ignored: the path names the version.
const decodeBody = compileDecoder(Type.Object({ kind: KindOf('meshBuildingBlockDefinitionVersion'), spec: VersionSpecSchema }));

export function decodeVersion(body: unknown): VersionSpec {
  const { spec } = decodeBody(body);
  return { ...spec, state: spec.state ?? 'DRAFT' } as VersionSpec;
}

/**
 * The spec as clients see it: defaults filled in, inputs always with `defaultValue` (null when none:
 * COMPAT §8), secrets as `{hash}`. Two specs with the same view are the same version content.
 */
export function versionView(spec: VersionSpec) {
  const inputs = Object.fromEntries(Object.entries(spec.inputs).map(([key, input]) => [key, { ...input, defaultValue: input.defaultValue ?? null }]));
  return hideSecrets({ deletionMode: 'DELETE', onlyApplyOncePerTenant: false, runnerRef: null, dependencyDefinitionRefs: [], permissions: [], ...spec, inputs });
}

export function encodeVersion(version: DefinitionVersion, apiVersion: string, baseUrl: string) {
  return {
    apiVersion,
    kind: 'meshBuildingBlockDefinitionVersion',
    metadata: { uuid: version.uuid, ownedByWorkspace: version.ownedByWorkspace, createdOn: version.createdOn },
    spec: versionView(version.spec),
    _links: {
      self: { href: `${baseUrl}${DEFINITION_VERSIONS_PATH}/${version.uuid}` },
      buildingBlockDefinition: { href: `${baseUrl}/api/meshobjects/meshbuildingblockdefinitions/${version.definitionUuid}` },
    },
  };
}
