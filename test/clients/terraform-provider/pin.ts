/**
 * The Terraform provider (`meshcloud/terraform-provider-meshstack`) this suite replays.
 *
 * The suite is our own TypeScript transcription of what the provider sends and how its Go structs
 * decode the answers; none of its code is copied here. Every transcription names the Go file it
 * follows, relative to the provider's repository root.
 *
 * Running it: `node --import tsx --test test/clients/terraform-provider/*.test.ts` (both databases;
 * BLOCKYARD_TEST_REQUIRE_POSTGRES=1 makes PostgreSQL mandatory). `npm test` includes it.
 *
 * Moving the pin forward:
 * 1. Read the provider's history from the pinned commit to the new one, above all `client/` (the
 *    structs, `client/internal/` for the HTTP client: login, headers, paging, retries) and
 *    `internal/provider/` (each resource's schema: which attributes are computed, which are sets,
 *    how it polls and deletes), its `*_test.go` acceptance tests and `examples/`.
 * 2. Update the Go type descriptors and the requests in this folder to match, the version the
 *    provider requires of `/mesh/info` (MIN_MESH_VERSION) and the release (CHANGELOG.md).
 * 3. Set COMMIT and DATE below, run the suite on both databases and list what fails in the issue.
 */
export const PROVIDER_REPOSITORY = 'meshcloud/terraform-provider-meshstack';
export const COMMIT = 'e5d3075c4a014c9c75cd0eb4d5f137a0e07d7fac';
export const DATE = '2026-08-19';
/** client/client.go MinMeshStackVersion: the provider refuses an older /mesh/info version. */
export const MIN_MESH_VERSION = '2026.34.0';
/** The release the pinned commit heads (CHANGELOG.md), as goreleaser stamps it into `main.version`. */
export const RELEASE = '0.25.0';
/** internal/provider/provider.go: `terraform-provider-meshstack/<version>`. */
export const USER_AGENT = `terraform-provider-meshstack/${RELEASE}`;
