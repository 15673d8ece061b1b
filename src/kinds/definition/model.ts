import type { SentObject } from '../document.js';
import type { TargetType, VersionState } from './enums.js';
import type { VersionSpec } from './wire/version-schema.js';

/** The internal building block definition (spec §2.6); its versions are loaded with it. */
export interface Definition {
  uuid: string;
  ownedByWorkspace: string;
  displayName: string;
  targetType: TargetType;
  createdOn: string;
  /** `metadata` (tags) and `spec` as sent. */
  document: SentObject;
  /** Every version, oldest first. */
  versions: VersionSummary[];
  /** Building blocks of the definition. */
  usageCount: number;
}

export interface VersionSummary {
  uuid: string;
  versionNumber: number;
  state: VersionState;
}

export interface DefinitionInput {
  ownedByWorkspace: string;
  displayName: string;
  targetType: TargetType;
  document: SentObject;
}

/** The internal definition version: its spec as stored (sealed secrets, derived manual outputs). */
export interface DefinitionVersion {
  uuid: string;
  definitionUuid: string;
  ownedByWorkspace: string;
  createdOn: string;
  spec: VersionSpec;
}

/** Spec 2.6: `latestVersion` includes a draft, `latestReleasedVersion` does not (0 when none). */
export function versionStatus(versions: readonly VersionSummary[]) {
  const latest = versions.at(-1);
  const released = versions.filter((version) => version.state === 'RELEASED').at(-1);
  return {
    latestVersion: latest?.versionNumber ?? 0,
    latestReleasedVersion: released?.versionNumber ?? 0,
    latestVersionUuid: latest?.uuid ?? null,
    latestReleasedVersionUuid: released?.uuid ?? null,
  };
}
