import type { SentObject } from '../document.js';

/** Its collection path. */
export const TAG_DEFINITIONS_PATH = '/api/meshobjects/meshtagdefinitions';

/** The `targetKind` values the OpenAPI lists. */
export const TAG_TARGET_KINDS = [
  'meshWorkspace',
  'meshProject',
  'meshLandingZone',
  'meshPaymentMethod',
  'meshBuildingBlockDefinition',
  'meshProjectRole',
  'meshPrincipal',
] as const;
export type TagTargetKind = (typeof TAG_TARGET_KINDS)[number];

/** `spec.valueType`: exactly one of these is set. */
export interface TagValueType {
  string?: { defaultValue?: string; validationRegex?: string };
  email?: { defaultValue?: string; validationRegex?: string };
  integer?: { defaultValue?: number };
  number?: { defaultValue?: number };
  singleSelect?: { options: string[]; defaultValue?: string };
  multiSelect?: { options: string[]; defaultValue?: string[] };
}

/** A tag definition, named `<targetKind>.<key>`: the schema of one tag of one kind. */
export interface TagDefinition {
  name: string;
  targetKind: TagTargetKind;
  key: string;
  displayName: string;
  valueType: TagValueType;
  mandatory: boolean;
  immutable: boolean;
  restricted: boolean;
  createdOn: string;
  document: SentObject;
}

export type TagDefinitionInput = Omit<TagDefinition, 'createdOn'>;

/** Tags as every kind holds them: key → values. */
export type Tags = Record<string, string[]>;

/** A document section (`metadata` or `spec`) with the enforced tags; unchanged when none were sent and none result. */
export function placeTags(section: Record<string, unknown>, tags: Tags): Record<string, unknown> {
  return section.tags === undefined && Object.keys(tags).length === 0 ? section : { ...section, tags };
}
