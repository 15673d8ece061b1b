/**
 * The service's shared runners, one per implementation type, for versions whose `runnerRef` is null
 *. Their uuids are stable: the Terraform provider's default `runnerRef` is `98520496-…`
 * (COMPAT §8), which it names for versions of every implementation type; so that one is an ALL runner
 * (migration 0022; the original's run controller serving it registers itself so) and still the default
 * of Terraform versions. `defaultFor`: the type whose versions without a runner it takes and whose
 * `selector` claims reach it.
 */
export const SHARED_RUNNERS = [
  { uuid: '98520496-627d-43e6-82da-ce499179ff3f', defaultFor: 'TERRAFORM', displayName: 'Shared runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a11', defaultFor: 'GITHUB_WORKFLOW', displayName: 'Shared GitHub Actions runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a12', defaultFor: 'GITLAB_PIPELINE', displayName: 'Shared GitLab pipeline runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a13', defaultFor: 'AZURE_DEVOPS_PIPELINE', displayName: 'Shared Azure DevOps pipeline runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a14', defaultFor: 'MANUAL', displayName: 'Shared manual runner' },
] as const;

export const sharedRunnerFor = (implementationType: string) => SHARED_RUNNERS.find((runner) => runner.defaultFor === implementationType);
