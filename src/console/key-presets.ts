/**
 * Named permission sets for new API keys: what a key for each common job needs in its workspace.
 * Each is a starting point; the permission list stays editable. Pure (key-presets.test.ts).
 */
export interface KeyPreset {
  id: string;
  label: string;
  /** What a key with this set is for, in a sentence. */
  purpose: string;
  permissions: readonly string[];
}

export const KEY_PRESETS: readonly KeyPreset[] = [
  {
    id: 'developer',
    label: 'Developer',
    purpose: 'orders building blocks for the workspace’s tenants and follows them',
    permissions: [
      'WORKSPACE_LIST',
      'PROJECT_LIST',
      'TENANT_LIST',
      'BUILDINGBLOCKDEFINITION_LIST',
      'BUILDINGBLOCK_LIST',
      'BUILDINGBLOCK_SAVE',
      'BUILDINGBLOCK_DELETE',
      'EVENTLOG_LIST',
    ],
  },
  {
    id: 'runner',
    label: 'Runner',
    purpose: 'claims and reports the runs of the workspace’s definitions, and keeps their Terraform state',
    permissions: [
      'BUILDINGBLOCKRUNNER_LIST',
      'MANAGED_BUILDINGBLOCKRUN_LIST',
      'MANAGED_BUILDINGBLOCKRUN_SAVE',
      'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE',
      'MANAGED_TFSTATE_LIST',
      'MANAGED_TFSTATE_SAVE',
      'MANAGED_TFSTATE_DELETE',
    ],
  },
  {
    id: 'ci',
    label: 'CI',
    purpose: 'a pipeline that publishes the workspace’s definitions and versions and watches their blocks',
    permissions: [
      'WORKSPACE_LIST',
      'BUILDINGBLOCKDEFINITION_LIST',
      'BUILDINGBLOCKDEFINITION_SAVE',
      'BUILDINGBLOCKRUNNER_LIST',
      'MANAGED_BUILDINGBLOCK_LIST',
      'MANAGED_BUILDINGBLOCKRUN_LIST',
      'EVENTLOG_LIST',
    ],
  },
];

/** The preset whose permissions are exactly `chosen`, if any (so the picker shows which one is in use). */
export function presetOf(chosen: ReadonlySet<string>): KeyPreset | undefined {
  return KEY_PRESETS.find((preset) => preset.permissions.length === chosen.size && preset.permissions.every((code) => chosen.has(code)));
}
