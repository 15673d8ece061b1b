/** A failure the user must fix (credentials, input, the server's refusal): one line on stderr, exit code 1. */
export class CliError extends Error {}
