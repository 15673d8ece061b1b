import type { SentObject } from '../document.js';

/** Its collection path. */
export const INTEGRATIONS_PATH = '/api/meshobjects/meshintegrations';

/**
 * `config.type` of user-made integrations → the list's `type` value (OpenAPI; `entraid`, which the
 * Terraform provider manages and the OpenAPI does not know, as `ENTRA_ID`).
 */
export const INTEGRATION_TYPES = { github: 'GITHUB', gitlab: 'GITLAB', azuredevops: 'AZURE_DEVOPS', entraid: 'ENTRA_ID' } as const;
export type ConfigType = keyof typeof INTEGRATION_TYPES;
/** Every value of the list's `type` filter, built-in types included. */
export const TYPE_FILTER_VALUES = ['GITLAB', 'GITHUB', 'AZURE_DEVOPS', 'ENTRA_ID', 'REPLICATOR', 'METERING'] as const;
export type IntegrationType = (typeof TYPE_FILTER_VALUES)[number];

/**
 * The secret fields of each config type, sealed at rest. Sent as a string (the published OpenAPI) a
 * secret reads as `<hidden>` and the mask sent back keeps it; sent as `{"plaintext"}` (the Terraform
 * provider) it reads as `{"hash"}` and `{"hash"}` sent back keeps it (COMPAT §6).
 */
export const SECRET_FIELDS: Record<ConfigType, readonly string[]> = {
  github: ['appPrivateKey'],
  gitlab: [],
  azuredevops: ['personalAccessToken'],
  entraid: ['clientSecret'],
};
/** What a secret sent as a string reads as (OpenAPI examples); sent back on PUT it keeps the stored value (the text's `***HIDDEN***` too). */
export const MASK = '<hidden>';
export const MASKS: readonly string[] = [MASK, '***HIDDEN***'];

/** The built-in integrations (migration 0015), with their fixed uuids (OpenAPI): read-only. */
export const BUILT_IN_INTEGRATIONS = {
  replicator: 'c8f4e7d2-3b1a-4c9e-8d5f-6a2b7c8d9e0f',
  metering: 'a1b2c3d4-5e6f-7a8b-9c0d-1e2f3a4b5c6d',
} as const;

/**
 * An integration: a workspace's connection to GitHub, GitLab or Azure DevOps that
 * definition versions of those implementation types name (`integrationRef`), or the admin
 * workspace's Entra ID application; secrets sealed.
 */
export interface Integration {
  uuid: string;
  ownedByWorkspace: string;
  displayName: string;
  type: IntegrationType;
  builtIn: boolean;
  createdOn: string;
  /** `spec.config` with its secrets sealed (`{hash, ciphertext}`). */
  document: IntegrationDocument;
}

/** `secretsAs: 'hash'`: the secrets were last sent in the secret form, and read as `{hash}`. */
export interface IntegrationDocument extends SentObject {
  secretsAs?: 'hash';
}

export interface IntegrationInput {
  ownedByWorkspace: string;
  displayName: string;
  configType: ConfigType;
  /** The runner of the pipelines' runs (none for Entra ID, which runs nothing). */
  runnerUuid?: string;
  /** `metadata.uuid` when sent (a PUT must name its path). */
  uuid?: string;
  document: IntegrationDocument;
}
