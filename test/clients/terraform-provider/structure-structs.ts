/**
 * The structure side's Go structs (client/workspace.go, project.go, location.go, payment_method.go,
 * tag_definition.go, platform_type.go, workspace_binding.go, project_binding.go at the pinned
 * commit) as descriptors, and their MeshObjectClients as the provider constructs them (kind, version,
 * path).
 */
import { go } from './go-json.js';
import type { ProviderClient } from './provider-client.js';
import { PLATFORM_CONFIG_TYPES, PLATFORM_CONFIGS, PLATFORM_PROPERTIES } from './structure-platform-configs.js';

const Tags = go.map(go.slice(go.string));

export const Workspace = go.struct('client.MeshWorkspace', {
  metadata: go.struct('client.MeshWorkspaceMetadata', { name: go.string, createdOn: go.string, deletedOn: go.ptr(go.string), tags: Tags }),
  spec: go.struct('client.MeshWorkspaceSpec', { displayName: go.string, platformBuilderAccessEnabled: go.ptr(go.bool) }),
});

export const Project = go.struct('client.MeshProject', {
  metadata: go.struct('client.MeshProjectMetadata', { name: go.string, ownedByWorkspace: go.string, createdOn: go.string, deletedOn: go.ptr(go.string) }),
  spec: go.struct('client.MeshProjectSpec', {
    displayName: go.string,
    tags: Tags,
    paymentMethodIdentifier: go.ptr(go.string),
    substitutePaymentMethodIdentifier: go.ptr(go.string),
  }),
});

export const Location = go.struct('client.MeshLocation', {
  metadata: go.struct('client.MeshLocationMetadata', { name: go.string, ownedByWorkspace: go.string, uuid: go.string }),
  spec: go.struct('client.MeshLocationSpec', { displayName: go.string, description: go.string }),
  status: go.struct('client.MeshLocationStatus', { isPublic: go.bool }),
});

export const PaymentMethod = go.struct('client.MeshPaymentMethod', {
  metadata: go.struct('client.MeshPaymentMethodMetadata', { name: go.string, ownedByWorkspace: go.string, createdOn: go.string, deletedOn: go.ptr(go.string) }),
  spec: go.struct('client.MeshPaymentMethodSpec', { displayName: go.string, expirationDate: go.ptr(go.string), amount: go.ptr(go.int64), tags: Tags }),
});

const defaultString = { defaultValue: go.ptr(go.string), validationRegex: go.ptr(go.string) };
export const TagDefinition = go.struct('client.MeshTagDefinition', {
  metadata: go.struct('client.MeshTagDefinitionMetadata', { name: go.string }),
  spec: go.struct('client.MeshTagDefinitionSpec', {
    targetKind: go.string,
    key: go.string,
    valueType: go.struct('client.MeshTagDefinitionValueType', {
      string: go.ptr(go.struct('client.TagValueString', defaultString)),
      email: go.ptr(go.struct('client.TagValueEmail', defaultString)),
      integer: go.ptr(go.struct('client.TagValueInteger', { defaultValue: go.ptr(go.int64) })),
      number: go.ptr(go.struct('client.TagValueNumber', { defaultValue: go.ptr(go.float64) })),
      singleSelect: go.ptr(go.struct('client.TagValueSingleSelect', { options: go.slice(go.string), defaultValue: go.ptr(go.string) })),
      multiSelect: go.ptr(go.struct('client.TagValueMultiSelect', { options: go.slice(go.string), defaultValue: go.ptr(go.slice(go.string)) })),
    }),
    description: go.string,
    displayName: go.string,
    sortOrder: go.int64,
    mandatory: go.bool,
    immutable: go.bool,
    restricted: go.bool,
    replicationKey: go.ptr(go.string),
  }),
});

export const PlatformType = go.struct('client.MeshPlatformType', {
  metadata: go.struct('client.MeshPlatformTypeMetadata', { name: go.string, ownedByWorkspace: go.string, uuid: go.ptr(go.string) }),
  spec: go.struct('client.MeshPlatformTypeSpec', { displayName: go.string, category: go.string, defaultEndpoint: go.ptr(go.string), icon: go.string }),
  status: go.struct('client.MeshPlatformTypeStatus', { lifecycle: go.struct('client.MeshPlatformTypeLifecycle', { state: go.string }) }),
});

const named = (name: string) => go.struct(name, { name: go.string });
export const WorkspaceBinding = (name: string) =>
  go.struct(name, {
    metadata: named('client.MeshWorkspaceBindingMetadata'),
    roleRef: named('client.MeshWorkspaceRoleRef'),
    targetRef: named('client.MeshWorkspaceTargetRef'),
    subject: named('client.MeshWorkspaceSubject'),
    expiryDate: go.ptr(go.string),
  });
export const ProjectBinding = (name: string) =>
  go.struct(name, {
    metadata: named('client.MeshProjectBindingMetadata'),
    roleRef: named('client.MeshProjectRoleRef'),
    targetRef: go.struct('client.MeshProjectTargetRef', { name: go.string, ownedByWorkspace: go.string }),
    subject: named('client.MeshSubject'),
  });

export interface Named {
  name: string;
}
export interface WorkspaceValue {
  metadata: { name: string; createdOn: string; deletedOn: string | null; tags: Record<string, string[]> | null };
  spec: { displayName: string; platformBuilderAccessEnabled: boolean | null };
}
export interface ProjectValue {
  metadata: { name: string; ownedByWorkspace: string; createdOn: string; deletedOn: string | null };
  spec: { displayName: string; tags: Record<string, string[]> | null; paymentMethodIdentifier: string | null; substitutePaymentMethodIdentifier: string | null };
}
export interface LocationValue {
  metadata: { name: string; ownedByWorkspace: string; uuid: string };
  spec: { displayName: string; description: string };
  status: { isPublic: boolean };
}
export interface PaymentMethodValue {
  metadata: { name: string; ownedByWorkspace: string; createdOn: string; deletedOn: string | null };
  spec: { displayName: string; expirationDate: string | null; amount: number | null; tags: Record<string, string[]> | null };
}
export interface TagDefinitionValue {
  metadata: Named;
  spec: Record<string, unknown>;
}
export interface PlatformTypeValue {
  metadata: { name: string; ownedByWorkspace: string; uuid: string | null };
  spec: { displayName: string; category: string; defaultEndpoint: string | null; icon: string };
  status: { lifecycle: { state: string } };
}
export interface BindingValue {
  metadata: Named;
  roleRef: Named;
  targetRef: { name: string; ownedByWorkspace?: string };
  subject: Named;
  expiryDate?: string | null;
}

/** The clients as client.New constructs them. */
export const structureClients = (provider: ProviderClient) => ({
  workspaces: provider.objects<WorkspaceValue>('meshWorkspace', 'v2', Workspace),
  projects: provider.objects<ProjectValue>('meshProject', 'v2', Project),
  locations: provider.objects<LocationValue>('meshLocation', 'v1', Location),
  paymentMethods: provider.objects<PaymentMethodValue>('meshPaymentMethod', 'v2', PaymentMethod),
  tagDefinitions: provider.objects<TagDefinitionValue>('meshTagDefinition', 'v1', TagDefinition),
  platformTypes: provider.objects<PlatformTypeValue>('meshPlatformType', 'v1', PlatformType),
  workspaceUserBindings: provider.objects<BindingValue>('meshWorkspaceUserBinding', 'v2', WorkspaceBinding('client.MeshWorkspaceUserBinding'), 'meshworkspacebindings', 'userbindings'),
  workspaceGroupBindings: provider.objects<BindingValue>('meshWorkspaceGroupBinding', 'v2', WorkspaceBinding('client.MeshWorkspaceGroupBinding'), 'meshworkspacebindings', 'groupbindings'),
  projectUserBindings: provider.objects<BindingValue>('meshProjectUserBinding', 'v3', ProjectBinding('client.MeshProjectUserBinding'), 'meshprojectbindings', 'userbindings'),
  projectGroupBindings: provider.objects<BindingValue>('meshProjectGroupBinding', 'v3', ProjectBinding('client.MeshProjectGroupBinding'), 'meshprojectbindings', 'groupbindings'),
});

const NamedKindRef = go.struct('client.NamedRef', { name: go.string, kind: go.string });
const UuidKindRef = go.struct('client.UuidRef', { uuid: go.string, kind: go.string });

/** client/platform.go, each config type as structure-platform-configs.ts describes it. */
export const Platform = go.struct('client.MeshPlatform', {
  metadata: go.struct('client.MeshPlatformMetadata', { name: go.string, ownedByWorkspace: go.string, uuid: go.ptr(go.string) }),
  spec: go.struct('client.MeshPlatformSpec', {
    displayName: go.string,
    description: go.string,
    endpoint: go.string,
    supportUrl: go.ptr(go.string),
    documentationUrl: go.ptr(go.string),
    accessInformation: go.ptr(go.string),
    locationRef: NamedKindRef,
    contributingWorkspaces: go.slice(go.string),
    availability: go.struct('client.PlatformAvailability', { restriction: go.string, publicationState: go.string, restrictedToWorkspaces: go.slice(go.string) }),
    config: go.ptr(
      go.struct('client.PlatformConfig', {
        type: go.string,
        ...Object.fromEntries(PLATFORM_CONFIG_TYPES.map((type) => [type, go.ptr(PLATFORM_CONFIGS[type])])),
      }),
    ),
    quotaDefinitions: go.slice(
      go.struct('client.QuotaDefinition', { quotaKey: go.string, minValue: go.int64, maxValue: go.int64, unit: go.string, autoApprovalThreshold: go.int64, description: go.string, label: go.string }),
    ),
  }),
});

/** client/landingzone.go. */
export const LandingZone = go.struct('client.MeshLandingZone', {
  metadata: go.struct('client.MeshLandingZoneMetadata', { name: go.string, ownedByWorkspace: go.string, tags: Tags }),
  spec: go.struct('client.MeshLandingZoneSpec', {
    displayName: go.string,
    description: go.string,
    automateDeletionApproval: go.bool,
    automateDeletionReplication: go.bool,
    restricted: go.bool,
    infoLink: go.ptr(go.string),
    platformRef: UuidKindRef,
    platformProperties: go.ptr(
      go.struct('client.MeshLandingZonePlatformProperties', {
        type: go.string,
        ...Object.fromEntries(PLATFORM_CONFIG_TYPES.map((type) => [type, go.ptr(PLATFORM_PROPERTIES[type])])),
      }),
    ),
    quotas: go.slice(go.struct('client.MeshLandingZoneQuota', { key: go.string, value: go.int64 })),
    mandatoryBuildingBlockRefs: go.slice(UuidKindRef),
    recommendedBuildingBlockRefs: go.slice(UuidKindRef),
  }),
  status: go.struct('client.MeshLandingZoneStatus', { disabled: go.bool, restricted: go.bool }),
});

const QuotaValue = (name: string) => go.struct(name, { value: go.int64 });
/** client/tenant_v4.go. */
export const Tenant = go.struct('client.MeshTenant', {
  metadata: go.struct('client.MeshTenantMetadata', { uuid: go.string, ownedByProject: go.string, ownedByWorkspace: go.string }),
  spec: go.struct('client.MeshTenantSpec', {
    platformRef: UuidKindRef,
    platformTenantId: go.ptr(go.string),
    landingZoneRef: go.ptr(NamedKindRef),
    requestedQuotas: go.map(QuotaValue('client.RequestQuotaValue')),
  }),
  status: go.struct('client.MeshTenantStatus', {
    tenantName: go.string,
    platformTypeIdentifier: go.string,
    platformWorkspaceId: go.ptr(go.string),
    tags: Tags,
    appliedQuotas: go.map(QuotaValue('client.AppliedQuotaValue')),
    lifecycle: go.struct('client.MeshTenantLifecycle', {
      state: go.named('enum.Entry[client.TenantLifecycleState]', go.string),
      markedForDeletion: go.ptr(go.struct('client.MeshTenantLifecycleAction', { timestamp: go.string })),
    }),
  }),
});

export interface PlatformValue {
  metadata: { name: string; ownedByWorkspace: string; uuid: string | null };
  spec: Record<string, unknown> & { quotaDefinitions: unknown[] | null };
}
export interface LandingZoneValue {
  metadata: { name: string; ownedByWorkspace: string; tags: Record<string, string[]> | null };
  spec: Record<string, unknown>;
  status: { disabled: boolean; restricted: boolean };
}
export interface TenantValue {
  metadata: { uuid: string; ownedByProject: string; ownedByWorkspace: string };
  spec: { platformRef: { uuid: string; kind: string }; platformTenantId: string | null; landingZoneRef: { name: string; kind: string } | null; requestedQuotas: Record<string, { value: number }> | null };
  status: { tenantName: string; platformTypeIdentifier: string; appliedQuotas: Record<string, { value: number }> | null; lifecycle: { state: string; markedForDeletion: { timestamp: string } | null } };
}

export const catalogueClients = (provider: ProviderClient) => ({
  platforms: provider.objects<PlatformValue>('meshPlatform', 'v2', Platform),
  landingZones: provider.objects<LandingZoneValue>('meshLandingZone', 'v1', LandingZone),
  tenants: provider.objects<TenantValue>('meshTenant', 'v4', Tenant),
});
