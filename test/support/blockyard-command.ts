/**
 * The arguments after `node` that run `blockyard <args>` (src/main.ts) in a child process: the
 * server compiled once for the whole run when the test runner built it (scripts/run-tests.mjs sets
 * BLOCKYARD_TEST_MAIN; it loads in a fraction of tsx's time), else the sources through tsx (a file
 * run on its own with `node --import tsx --test`). Either way the child's working directory must be
 * the project's root.
 */
export function blockyardArgs(args: readonly string[], nodeOptions: readonly string[] = []): string[] {
  const compiled = process.env.BLOCKYARD_TEST_MAIN;
  return compiled ? [...nodeOptions, compiled, ...args] : [...nodeOptions, '--import', 'tsx', 'src/main.ts', ...args];
}
