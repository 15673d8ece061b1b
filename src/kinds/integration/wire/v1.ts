import { Type } from '@sinclair/typebox';
import { isSealedSecret } from '../../../crypto/secret-values.js';
import { badRequest } from '../../../lib/errors.js';
import { compileDecoder, StringEnum } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, ShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink, sentUuid } from '../../wire-helpers.js';
import { INTEGRATIONS_PATH, MASK, SECRET_FIELDS, type ConfigType, type Integration, type IntegrationInput } from '../model.js';

const Url = Type.String({ minLength: 1, maxLength: 2048 });
const RunnerRef = Type.Object({ kind: KindOf('meshBuildingBlockRunner'), uuid: Uuid });
const SecretText = Type.String({ minLength: 1, maxLength: 65_536 });
/** A secret as the OpenAPI sends it (a string, or the mask to keep it) or in the secret form (COMPAT §6), as the Terraform provider does. */
const Secret = Type.Union([
  SecretText,
  Type.Object({ plaintext: SecretText }),
  Type.Object({ hash: Type.String({ minLength: 1, maxLength: 256 }) }),
]);
const CONFIGS = {
  github: Type.Object({
    owner: NonEmptyShortString,
    baseUrl: Url,
    appId: NonEmptyShortString,
    appPrivateKey: Secret,
    runnerRef: RunnerRef,
  }),
  gitlab: Type.Object({ baseUrl: Url, runnerRef: RunnerRef }),
  // The Terraform provider leaves the token out when the pipelines need none.
  azuredevops: Type.Object({
    baseUrl: Url,
    organization: NonEmptyShortString,
    personalAccessToken: Type.Optional(Secret),
    runnerRef: RunnerRef,
  }),
  entraid: Type.Object({
    tenantId: NonEmptyShortString,
    clientId: NonEmptyShortString,
    clientSecret: Secret,
    redirectUrl: Type.Optional(Url),
  }),
};
const configDecoders = Object.fromEntries(
  Object.entries(CONFIGS).map(([type, schema]) => [type, compileDecoder(schema)]),
) as unknown as Record<ConfigType, (value: unknown, prefix?: string) => { runnerRef?: { uuid: string } }>;

const Body = Type.Object({
  kind: KindOf('meshIntegration'),
  metadata: Type.Object({ ownedByWorkspace: Identifier, uuid: Type.Optional(ShortString) }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    config: Type.Object({ type: StringEnum(['github', 'gitlab', 'azuredevops', 'entraid'] as const) }, { additionalProperties: true }),
  }),
});

const Audience = Type.Object({ audience: Type.String() });
const WorkloadIdentity = Type.Object({
  issuer: Type.String(),
  subject: Type.String(),
  gcp: Audience,
  aws: Type.Object({ audience: Type.String(), thumbprint: Type.String() }),
  azure: Audience,
});

/**
 * The config as a reader sees it: secrets masked, or as `{hash}` when they were sent in the secret
 * form; an Entra ID integration's `redirectUrl`, unless sent, is computed (as the original's is).
 */
function maskedConfig(integration: Integration, baseUrl: string): Record<string, unknown> {
  const config = integration.document.spec.config as Record<string, unknown> & { type: string };
  const fields = SECRET_FIELDS[config.type as ConfigType];
  if (!fields) return config;
  const own = { ...(config[config.type] as Record<string, unknown>) };
  if (config.type === 'entraid') own.redirectUrl ??= `${baseUrl}/oauth/redirect/${integration.uuid}`;
  for (const field of fields) {
    const stored = own[field];
    if (stored === undefined) continue;
    own[field] = integration.document.secretsAs === 'hash' && isSealedSecret(stored) ? { hash: stored.hash } : MASK;
  }
  return { ...config, [config.type]: own };
}

/**
 * meshIntegration v1 (and v1-preview, the same shape): `metadata.{uuid, ownedByWorkspace,
 * createdOn}`, `spec.{displayName, config}` — a tagged union (`github`, `gitlab`, `azuredevops`, each
 * with a `runnerRef`, and `entraid`); `status.isBuiltIn` (and the built-ins' workload identity federation).
 */
export const integrationV1 = objectVersion('meshIntegration', 'v1', {
  answer: {
    metadata: Echoed({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Echoed({
      displayName: Type.String(),
      config: Echoed(
        { type: Type.String({ description: 'github, gitlab, azuredevops or entraid; the built-in integrations’ own types' }) },
        { description: 'secrets masked' },
      ),
    }),
    status: Type.Object({ isBuiltIn: Type.Boolean(), workloadIdentityFederation: Type.Optional(WorkloadIdentity) }),
  },
  body: Body,
  decode({ metadata, spec }): IntegrationInput {
    const type = spec.config.type;
    const others = Object.keys(spec.config).filter((key) => key !== 'type' && key !== type);
    if (others.length > 0) throw badRequest(`spec.config.${others[0]}: the config is of type "${type}" only`);
    const own = configDecoders[type]((spec.config as Record<string, unknown>)[type] ?? {}, `spec.config.${type}`);
    return {
      ownedByWorkspace: metadata.ownedByWorkspace,
      displayName: spec.displayName,
      configType: type,
      ...(own.runnerRef ? { runnerUuid: own.runnerRef.uuid.toLowerCase() } : {}),
      ...sentUuid(metadata),
      document: sentObject(metadata, spec),
    };
  },
  encode(integration: Integration, view: EncodeView) {
    const { baseUrl } = view;
    const { spec } = integration.document;
    return {
      metadata: {
        ...integration.document.metadata,
        uuid: integration.uuid,
        ownedByWorkspace: integration.ownedByWorkspace,
        createdOn: integration.createdOn,
      },
      spec: { ...spec, displayName: integration.displayName, config: maskedConfig(integration, baseUrl) },
      status: integration.builtIn
        ? { isBuiltIn: true, workloadIdentityFederation: workloadIdentity(baseUrl, integration) }
        : { isBuiltIn: false },
      _links: selfLink(view, INTEGRATIONS_PATH, integration.uuid),
    };
  },
});

/** The identity the built-in components present to clouds; no AWS thumbprint is known for this service's issuer (`''`, the OpenAPI requires the field). */
function workloadIdentity(baseUrl: string, integration: Integration) {
  const subject = `system:serviceaccount:blockyard:${(integration.document.spec.config as { type: string }).type}`;
  return {
    issuer: baseUrl,
    subject,
    gcp: { audience: 'gcp-workload-identity-provider:blockyard' },
    aws: { audience: 'aws-workload-identity-provider:blockyard', thumbprint: '' },
    azure: { audience: 'api://AzureADTokenExchange' },
  };
}
