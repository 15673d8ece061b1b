/**
 * The service's shared runners, one per implementation type, for versions whose `runnerRef` is null
 * (issue 7). Their uuids are stable: the Terraform provider's default `runnerRef` is the shared
 * Terraform runner `98520496-…` (COMPAT §8).
 */
export const SHARED_RUNNERS = [
  { uuid: '98520496-627d-43e6-82da-ce499179ff3f', implementationType: 'TERRAFORM', displayName: 'Shared Terraform runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a11', implementationType: 'GITHUB_WORKFLOW', displayName: 'Shared GitHub Actions runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a12', implementationType: 'GITLAB_PIPELINE', displayName: 'Shared GitLab pipeline runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a13', implementationType: 'AZURE_DEVOPS_PIPELINE', displayName: 'Shared Azure DevOps pipeline runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a14', implementationType: 'MANUAL', displayName: 'Shared manual runner' },
] as const;

export const sharedRunnerFor = (implementationType: string) => SHARED_RUNNERS.find((runner) => runner.implementationType === implementationType);
