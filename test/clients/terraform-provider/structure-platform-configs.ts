/**
 * The platform configs (client/platform_config_<type>.go) and landing zone platform properties
 * (client/platform_properties_<type>.go) at the pinned commit as Go descriptors, with one request
 * body of each as the provider's examples write them. types.Set is a slice on the wire (compared as
 * a set); types.Secret is `{plaintext}` sent and `{hash}` answered.
 */
import { go } from './go-json.js';
import { Secret } from './provider-client.js';

const { string: str, bool, int64, ptr, slice, struct } = go;
const NamedRef = struct('client.NamedRef', { name: str, kind: str });
const Processing = struct('client.MeshPlatformMeteringProcessingConfig', { compactTimelinesAfterDays: int64, deleteRawDataAfterDays: int64 });
const TenantTags = struct('client.MeshTenantTags', { namespacePrefix: str, tagMappers: slice(struct('client.TagMapper', { key: str, valuePattern: str })) });
const KubernetesClient = struct('client.KubernetesClientConfig', { accessToken: Secret });
const AzureAuth = struct('client.AzureAuthConfig', { type: str, credential: ptr(Secret) });
const AzurePrincipal = struct('client.AzureServicePrincipalConfig', { clientId: str, objectId: str, auth: AzureAuth });
const B2b = struct('client.AzureInviteB2BUserConfig', { redirectUrl: str, sendAzureInvitationMail: bool });
const AwsAccess = struct('client.AwsAccessConfig', {
  organizationRootAccountRole: str,
  organizationRootAccountExternalId: ptr(str),
  auth: struct('client.AwsAuth', {
    type: str,
    credential: ptr(struct('client.AwsServiceUserCredential', { accessKey: str, secretKey: Secret })),
    workloadIdentity: ptr(struct('client.AwsWorkloadIdentityCredential', { roleArn: str })),
  }),
});
const AwsRoleMapping = (name: string) => struct(name, { projectRoleRef: NamedRef, awsRole: str, permissionSetArns: slice(str) });
const GcpAccount = struct('client.GcpServiceAccountConfig', {
  type: str,
  credential: ptr(Secret),
  workloadIdentity: ptr(struct('client.GcpServiceAccountWorkloadIdentityConfig', { audience: str, serviceAccountEmail: str })),
});

export const PLATFORM_CONFIGS = {
  aks: struct('client.AksPlatformConfig', {
    baseUrl: str,
    disableSslValidation: bool,
    replication: ptr(
      struct('client.AksReplicationConfig', {
        accessToken: Secret,
        namespaceNamePattern: str,
        groupNamePattern: str,
        servicePrincipal: struct('client.AksServicePrincipalConfig', { entraTenant: str, objectId: str, clientId: str, auth: AzureAuth }),
        aksSubscriptionId: str,
        aksClusterName: str,
        aksResourceGroup: str,
        redirectUrl: ptr(str),
        sendAzureInvitationMail: bool,
        userLookUpStrategy: str,
        administrativeUnitId: ptr(str),
      }),
    ),
    metering: ptr(struct('client.AksMeteringConfig', { clientConfig: KubernetesClient, processing: Processing })),
  }),
  aws: struct('client.AwsPlatformConfig', {
    region: str,
    replication: ptr(
      struct('client.AwsReplicationConfig', {
        accessConfig: AwsAccess,
        waitForExternalAvm: bool,
        automationAccountRole: str,
        automationAccountExternalId: ptr(str),
        accountAccessRole: str,
        accountAliasPattern: str,
        enforceAccountAlias: bool,
        accountEmailPattern: str,
        tenantTags: ptr(TenantTags),
        awsSso: ptr(struct('client.AwsSsoConfig', { scimEndpoint: str, arn: str, groupNamePattern: str, ssoAccessToken: Secret, awsRoleMappings: slice(AwsRoleMapping('client.AwsSsoRoleMapping')), signInUrl: str })),
        awsIdentityStore: ptr(struct('client.AwsIdentityStoreConfig', { identityStoreId: str, arn: str, groupNamePattern: str, awsRoleMappings: slice(AwsRoleMapping('client.AwsIdentityStoreRoleMapping')), signInUrl: str })),
        enrollmentConfiguration: ptr(struct('client.AwsEnrollmentConfiguration', { managementAccountId: str, accountFactoryProductId: str })),
        selfDowngradeAccessRole: bool,
        skipUserGroupPermissionCleanup: bool,
        allowHierarchicalOrganizationalUnitAssignment: bool,
      }),
    ),
    metering: ptr(struct('client.AwsMeteringConfig', { accessConfig: AwsAccess, filter: str, reservedInstanceFairChargeback: bool, savingsPlanFairChargeback: bool, processing: Processing })),
  }),
  azure: struct('client.AzurePlatformConfig', {
    entraTenant: str,
    replication: ptr(
      struct('client.AzureReplicationConfig', {
        servicePrincipal: AzurePrincipal,
        updateSubscriptionName: bool,
        provisioning: ptr(
          struct('client.AzureSubscriptionProvisioningConfig', {
            subscriptionOwnerObjectIds: slice(str),
            enterpriseEnrollment: ptr(struct('client.AzureEnterpriseEnrollmentConfig', { enrollmentAccountId: str, subscriptionOfferType: str, useLegacySubscriptionEnrollment: bool, subscriptionCreationErrorCooldownSec: ptr(int64) })),
            customerAgreement: ptr(
              struct('client.AzureCustomerAgreementConfig', {
                sourceServicePrincipal: struct('client.AzureGraphApiCredentials', { clientId: str, auth: AzureAuth }),
                destinationEntraId: str,
                sourceEntraTenant: str,
                billingScope: str,
                subscriptionCreationErrorCooldownSec: ptr(int64),
              }),
            ),
            preProvisioned: ptr(struct('client.AzurePreProvisionedSubscriptionConfig', { unusedSubscriptionNamePrefix: str })),
          }),
        ),
        b2bUserInvitation: ptr(B2b),
        subscriptionNamePattern: str,
        groupNamePattern: str,
        azureRoleMappings: slice(struct('client.AzureRoleMapping', { projectRoleRef: NamedRef, azureRole: struct('client.AzureRole', { alias: str, id: str }) })),
        tenantTags: ptr(TenantTags),
        userLookUpStrategy: str,
        skipUserGroupPermissionCleanup: bool,
        administrativeUnitId: ptr(str),
        allowHierarchicalManagementGroupAssignment: bool,
      }),
    ),
    metering: ptr(struct('client.AzureMeteringConfig', { servicePrincipal: AzurePrincipal, processing: Processing })),
  }),
  azurerg: struct('client.AzureRgPlatformConfig', {
    entraTenant: str,
    replication: ptr(
      struct('client.AzureRgReplicationConfig', {
        servicePrincipal: AzurePrincipal,
        subscription: str,
        resourceGroupNamePattern: str,
        userGroupNamePattern: str,
        b2bUserInvitation: ptr(B2b),
        userLookUpStrategy: str,
        tenantTags: ptr(TenantTags),
        skipUserGroupPermissionCleanup: bool,
        administrativeUnitId: ptr(str),
      }),
    ),
  }),
  custom: struct('client.CustomPlatformConfig', {
    platformTypeRef: NamedRef,
    metering: ptr(struct('client.CustomMeteringConfig', { processing: ptr(Processing) })),
  }),
  gcp: struct('client.GcpPlatformConfig', {
    replication: ptr(
      struct('client.GcpReplicationConfig', {
        serviceAccount: GcpAccount,
        domain: str,
        customerId: str,
        groupNamePattern: str,
        projectNamePattern: str,
        projectIdPattern: str,
        billingAccountId: str,
        userLookupStrategy: str,
        usedExternalIdType: ptr(str),
        gcpRoleMappings: slice(struct('client.GcpPlatformRoleMapping', { projectRoleRef: NamedRef, gcpRole: str })),
        allowHierarchicalFolderAssignment: bool,
        tenantTags: ptr(TenantTags),
        skipUserGroupPermissionCleanup: bool,
      }),
    ),
    metering: ptr(
      struct('client.GcpMeteringConfig', {
        serviceAccount: GcpAccount,
        bigqueryTable: str,
        bigqueryTableForCarbonFootprint: ptr(str),
        carbonFootprintDataCollectionStartMonth: ptr(str),
        partitionTimeColumn: str,
        additionalFilter: ptr(str),
        processing: Processing,
      }),
    ),
  }),
  kubernetes: struct('client.KubernetesPlatformConfig', {
    baseUrl: str,
    disableSslValidation: bool,
    replication: ptr(struct('client.KubernetesReplicationConfig', { clientConfig: KubernetesClient, namespaceNamePattern: str })),
    metering: ptr(struct('client.KubernetesMeteringConfig', { clientConfig: KubernetesClient, processing: Processing })),
  }),
  openshift: struct('client.OpenShiftPlatformConfig', {
    baseUrl: str,
    disableSslValidation: bool,
    replication: ptr(
      struct('client.OpenShiftReplicationConfig', {
        clientConfig: KubernetesClient,
        webConsoleUrl: ptr(str),
        projectNamePattern: str,
        openshiftRoleMappings: slice(struct('client.OpenShiftPlatformRoleMapping', { projectRoleRef: NamedRef, openshiftRole: str })),
        identityProviderName: str,
        tenantTags: ptr(TenantTags),
      }),
    ),
    metering: ptr(struct('client.OpenShiftMeteringConfig', { clientConfig: KubernetesClient, processing: Processing })),
  }),
};
export type PlatformConfigType = keyof typeof PLATFORM_CONFIGS;
export const PLATFORM_CONFIG_TYPES = Object.keys(PLATFORM_CONFIGS) as PlatformConfigType[];

const KubernetesRoleMappings = slice(struct('client.KubernetesRoleMapping', { projectRoleRef: NamedRef, platformRoles: slice(str) }));
export const PLATFORM_PROPERTIES = {
  aks: struct('client.AksPlatformProperties', { kubernetesRoleMappings: KubernetesRoleMappings }),
  aws: struct('client.AwsPlatformProperties', {
    awsTargetOrgUnitId: str,
    awsEnrollAccount: bool,
    awsLambdaArn: ptr(str),
    awsRoleMappings: slice(struct('client.AwsRoleMapping', { projectRoleRef: NamedRef, platformRole: str, policies: slice(str) })),
  }),
  azure: struct('client.AzurePlatformProperties', {
    azureRoleMappings: slice(
      struct('client.AzureRoleMappingProperty', {
        projectRoleRef: NamedRef,
        azureGroupSuffix: str,
        azureRoleDefinitions: slice(struct('client.AzureRoleDefinition', { azureRoleDefinitionId: str, abacCondition: ptr(str) })),
      }),
    ),
    azureManagementGroupId: str,
  }),
  azurerg: struct('client.AzureRgPlatformProperties', {
    azureRgLocation: str,
    azureRgRoleMappings: slice(struct('client.AzureRgRoleMapping', { projectRoleRef: NamedRef, azureGroupSuffix: str, azureRoleDefinitionIds: slice(str) })),
    azureFunction: ptr(struct('client.AzureFunction', { azureFunctionUrl: str, azureFunctionScope: str })),
  }),
  custom: struct('client.CustomPlatformProperties', {}),
  gcp: struct('client.GcpPlatformProperties', {
    gcpCloudFunctionUrl: ptr(str),
    gcpFolderId: ptr(str),
    gcpRoleMappings: slice(struct('client.GcpRoleMapping', { projectRoleRef: NamedRef, platformRoles: slice(str) })),
  }),
  kubernetes: struct('client.KubernetesPlatformProperties', { kubernetesRoleMappings: KubernetesRoleMappings }),
  openshift: struct('client.OpenShiftPlatformProperties', {}),
};

const role = (name: string) => ({ name, kind: 'meshProjectRole' });
const secret = (plaintext: string) => ({ plaintext });
const azureAuth = (plaintext: string) => ({ type: 'credential', credential: secret(plaintext) });
const processing = { compactTimelinesAfterDays: 30, deleteRawDataAfterDays: 65 };

/** Each type's config as sent (secrets as `{plaintext}`), and the paths below it of its secrets. */
export function configExample(type: PlatformConfigType, platformType: string, token: string): { config: Record<string, unknown>; secrets: string[] } {
  switch (type) {
    case 'aks':
      return {
        config: {
          baseUrl: 'https://aks.example.com',
          disableSslValidation: false,
          replication: {
            accessToken: secret(token),
            namespaceNamePattern: '#{workspaceIdentifier}-#{projectIdentifier}',
            groupNamePattern: 'aks-#{workspaceIdentifier}.#{projectIdentifier}-#{platformGroupAlias}',
            servicePrincipal: { entraTenant: 'dev-mycompany.onmicrosoft.com', objectId: 'aks-object', clientId: 'aks-client', auth: azureAuth(`${token}-sp`) },
            aksSubscriptionId: '00000000-0000-0000-0000-000000000001',
            aksClusterName: 'cluster',
            aksResourceGroup: 'rg',
            sendAzureInvitationMail: false,
            userLookUpStrategy: 'UserByMailLookupStrategy',
          },
        },
        secrets: ['replication.accessToken', 'replication.servicePrincipal.auth.credential'],
      };
    case 'aws':
      return {
        config: {
          region: 'eu-central-1',
          replication: {
            accessConfig: { organizationRootAccountRole: 'arn:aws:iam::123456789012:role/root', auth: { type: 'credential', credential: { accessKey: 'AKIAEXAMPLE', secretKey: secret(token) } } },
            waitForExternalAvm: false,
            automationAccountRole: 'arn:aws:iam::123456789012:role/automation',
            accountAccessRole: 'OrganizationAccountAccessRole',
            accountAliasPattern: '#{workspaceIdentifier}-#{projectIdentifier}',
            enforceAccountAlias: false,
            accountEmailPattern: 'aws+#{workspaceIdentifier}.#{projectIdentifier}@example.com',
            awsSso: {
              scimEndpoint: 'https://scim.us-east-1.amazonaws.com/example/scim/v2/',
              arn: 'arn:aws:sso:::instance/ssoins-example',
              groupNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}-#{platformGroupAlias}',
              ssoAccessToken: secret(`${token}-sso`),
              awsRoleMappings: [{ projectRoleRef: role('admin'), awsRole: 'admin', permissionSetArns: ['arn:aws:sso:::permissionSet/ssoins-example/ps-admin'] }],
              signInUrl: 'https://example.awsapps.com/start',
            },
            selfDowngradeAccessRole: false,
            skipUserGroupPermissionCleanup: false,
            allowHierarchicalOrganizationalUnitAssignment: false,
          },
        },
        secrets: ['replication.accessConfig.auth.credential.secretKey', 'replication.awsSso.ssoAccessToken'],
      };
    case 'azure':
      return {
        config: {
          entraTenant: 'dev-mycompany.onmicrosoft.com',
          replication: {
            servicePrincipal: { clientId: 'azure-client', objectId: 'azure-object', auth: azureAuth(token) },
            updateSubscriptionName: true,
            provisioning: { subscriptionOwnerObjectIds: ['owner-1'], preProvisioned: { unusedSubscriptionNamePrefix: 'unused-' } },
            subscriptionNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}',
            groupNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}-#{platformGroupAlias}',
            azureRoleMappings: [{ projectRoleRef: role('admin'), azureRole: { alias: 'admin', id: 'role-id' } }],
            userLookUpStrategy: 'UserByMailLookupStrategy',
            skipUserGroupPermissionCleanup: false,
            allowHierarchicalManagementGroupAssignment: false,
          },
        },
        secrets: ['replication.servicePrincipal.auth.credential'],
      };
    case 'azurerg':
      return {
        config: {
          entraTenant: 'dev-mycompany.onmicrosoft.com',
          replication: {
            servicePrincipal: { clientId: 'rg-client', objectId: 'rg-object', auth: azureAuth(token) },
            subscription: '00000000-0000-0000-0000-000000000002',
            resourceGroupNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}',
            userGroupNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}-#{platformGroupAlias}',
            userLookUpStrategy: 'UserByMailLookupStrategy',
            skipUserGroupPermissionCleanup: false,
          },
        },
        secrets: ['replication.servicePrincipal.auth.credential'],
      };
    case 'custom':
      return { config: { platformTypeRef: { name: platformType, kind: 'meshPlatformType' }, metering: { processing } }, secrets: [] };
    case 'gcp':
      return {
        config: {
          replication: {
            serviceAccount: { type: 'credential', credential: secret(Buffer.from(`{"key":"${token}"}`).toString('base64')) },
            domain: 'example.com',
            customerId: 'C0example',
            groupNamePattern: '#{workspaceIdentifier}.#{projectIdentifier}-#{platformGroupAlias}',
            projectNamePattern: '#{workspaceIdentifier}-#{projectIdentifier}',
            projectIdPattern: '#{workspaceIdentifier}-#{projectIdentifier}',
            billingAccountId: '000000-000000-000000',
            userLookupStrategy: 'email',
            gcpRoleMappings: [{ projectRoleRef: role('admin'), gcpRole: 'roles/editor' }],
            allowHierarchicalFolderAssignment: false,
            skipUserGroupPermissionCleanup: false,
          },
        },
        secrets: ['replication.serviceAccount.credential'],
      };
    case 'kubernetes':
      return {
        config: {
          baseUrl: 'https://k8s.example.com',
          disableSslValidation: true,
          replication: { clientConfig: { accessToken: secret(token) }, namespaceNamePattern: '#{workspaceIdentifier}-#{projectIdentifier}' },
          metering: { clientConfig: { accessToken: secret(`${token}-metering`) }, processing },
        },
        secrets: ['replication.clientConfig.accessToken', 'metering.clientConfig.accessToken'],
      };
    case 'openshift':
      return {
        config: {
          baseUrl: 'https://openshift.example.com',
          disableSslValidation: false,
          replication: {
            clientConfig: { accessToken: secret(token) },
            projectNamePattern: '#{workspaceIdentifier}-#{projectIdentifier}',
            openshiftRoleMappings: [{ projectRoleRef: role('admin'), openshiftRole: 'admin' }],
            identityProviderName: 'Keycloak',
          },
        },
        secrets: ['replication.clientConfig.accessToken'],
      };
  }
}

/** Each type's landing zone platform properties as sent. */
export const PROPERTIES_EXAMPLES: Record<PlatformConfigType, Record<string, unknown>> = {
  aks: { kubernetesRoleMappings: [{ projectRoleRef: role('admin'), platformRoles: ['admin'] }] },
  aws: { awsTargetOrgUnitId: 'ou-0000-00000000', awsEnrollAccount: false, awsLambdaArn: null, awsRoleMappings: [{ projectRoleRef: role('admin'), platformRole: 'admin', policies: ['arn:aws:iam::aws:policy/AdministratorAccess'] }] },
  azure: { azureRoleMappings: [{ projectRoleRef: role('admin'), azureGroupSuffix: 'admin', azureRoleDefinitions: [{ azureRoleDefinitionId: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635', abacCondition: null }] }], azureManagementGroupId: 'mg-dev' },
  azurerg: { azureRgLocation: 'westeurope', azureRgRoleMappings: [{ projectRoleRef: role('admin'), azureGroupSuffix: 'admin', azureRoleDefinitionIds: ['8e3af657-a8ff-443c-a75c-2fe8c4bcb635'] }] },
  custom: {},
  gcp: { gcpFolderId: 'folders/123', gcpRoleMappings: [{ projectRoleRef: role('admin'), platformRoles: ['roles/editor'] }] },
  kubernetes: { kubernetesRoleMappings: [{ projectRoleRef: role('admin'), platformRoles: ['admin'] }] },
  openshift: {},
};
