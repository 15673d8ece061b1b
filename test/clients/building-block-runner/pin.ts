/**
 * The original's runner code this suite replays: `meshcloud/building-block-runner` at COMMIT, its
 * `go-meshapi-client/meshapi` (client.go, auth.go, dtos.go: standard library only) as the Terraform
 * runner (`tf-block-runner/tfrun`: runapi.go, dtos.go, tfcmd.go) and the run controller
 * (`run-controller/controller/runapi.go`) use it, and the run controller's own registration
 * (`run-controller/controller/registration.go`, dtos.go).
 *
 * To move the pin: fetch the repository again, read `git log COMMIT..HEAD -- go-meshapi-client
 * tf-block-runner/tfrun run-controller/controller` and carry every change of a request (path,
 * headers, body) into runner-client.ts and of a decoded struct into dtos.ts; then change COMMIT and
 * DATE and run `npm test -- test/clients/building-block-runner`.
 */
export const RUNNER_REPOSITORY = 'meshcloud/building-block-runner';
export const COMMIT = '555405dd00a6471ea541b3b018389ebea54b6225';
export const DATE = '2026-07-23';
