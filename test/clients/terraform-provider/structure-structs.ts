/**
 * The structure side's Go structs (client/workspace.go, project.go, location.go, payment_method.go,
 * tag_definition.go, platform_type.go, workspace_binding.go, project_binding.go at the pinned
 * commit) as descriptors, and their MeshObjectClients as the provider constructs them (kind, version,
 * path).
 */
import { go } from './go-json.js';
import type { ProviderClient } from './provider-client.js';

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
