/** The enumerations of definitions, versions and their inputs/outputs (spec §2.3.1, §2.6, COMPAT §8). */

/** Value types of inputs and outputs (spec §2.3.1). */
export const VALUE_TYPES = ['STRING', 'CODE', 'INTEGER', 'BOOLEAN', 'FILE', 'LIST', 'SINGLE_SELECT', 'MULTI_SELECT'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** Where an input's value comes from. */
export const INPUT_ASSIGNMENT_TYPES = [
  'AUTHOR',
  'USER_INPUT',
  'PLATFORM_OPERATOR_MANUAL_INPUT',
  'STATIC',
  'BUILDING_BLOCK_OUTPUT',
  'PLATFORM_TENANT_ID',
  'MESHSTACK_TENANT_UUID',
  'WORKSPACE_IDENTIFIER',
  'PROJECT_IDENTIFIER',
  'FULL_PLATFORM_IDENTIFIER',
  'TENANT_BUILDING_BLOCK_UUID',
  'USER_PERMISSIONS',
] as const;
export type InputAssignmentType = (typeof INPUT_ASSIGNMENT_TYPES)[number];

/** Inputs whose value a block's creator (user) or a platform operator supplies. */
export const SUPPLIED_ASSIGNMENT_TYPES: readonly InputAssignmentType[] = ['USER_INPUT', 'PLATFORM_OPERATOR_MANUAL_INPUT'];
/** Inputs with an `argument` (a static value, or `<definitionUuid>.<output>` of a parent). */
export const ARGUMENT_ASSIGNMENT_TYPES: readonly InputAssignmentType[] = ['STATIC', 'BUILDING_BLOCK_OUTPUT'];
/** Types that may hold a secret (COMPAT §11: the runner decrypts STRING, CODE and FILE only). */
export const SENSITIVE_VALUE_TYPES: readonly ValueType[] = ['STRING', 'CODE', 'FILE'];
export const SELECT_VALUE_TYPES: readonly ValueType[] = ['SINGLE_SELECT', 'MULTI_SELECT'];

export const OUTPUT_TYPES = ['STRING', 'CODE', 'INTEGER', 'BOOLEAN'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];
export const OUTPUT_ASSIGNMENT_TYPES = ['NONE', 'PLATFORM_TENANT_ID', 'SIGN_IN_URL', 'RESOURCE_URL', 'SUMMARY'] as const;

export const TARGET_TYPES = ['TENANT_LEVEL', 'WORKSPACE_LEVEL'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const VERSION_STATES = ['DRAFT', 'RELEASED'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/**
 * The publication review of a released version (COMPAT §5 "release without review: admin"): released
 * by an admin, or approved by one, it is in the marketplace (APPROVED); released by a workspace, it
 * waits for an admin (IN_REVIEW), who approves or rejects it.
 */
export const REVIEW_STATES = ['IN_REVIEW', 'APPROVED', 'REJECTED'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const DELETION_MODES = ['DELETE', 'PURGE'] as const;
export type DeletionMode = (typeof DELETION_MODES)[number];

/**
 * Implementation types of a version (`implementation.type`) with the runner type that executes them
 * and the run's implementation type (COMPAT §10).
 */
export const IMPLEMENTATIONS = {
  manual: { runnerType: 'MANUAL', runType: 'MANUAL', secrets: [] },
  terraform: { runnerType: 'TERRAFORM', runType: 'TERRAFORM', secrets: ['sshPrivateKey'] },
  githubWorkflows: { runnerType: 'GITHUB_WORKFLOW', runType: 'GITHUB_WORKFLOW', secrets: [] },
  gitlabPipeline: { runnerType: 'GITLAB_PIPELINE', runType: 'GITLAB_CICD', secrets: ['pipelineTriggerToken'] },
  azureDevOpsPipeline: { runnerType: 'AZURE_DEVOPS_PIPELINE', runType: 'AZURE_DEVOPS', secrets: [] },
} as const satisfies Record<string, { runnerType: string; runType: string; secrets: readonly string[] }>;
export type ImplementationType = keyof typeof IMPLEMENTATIONS;
export const IMPLEMENTATION_TYPES = Object.keys(IMPLEMENTATIONS) as ImplementationType[];
