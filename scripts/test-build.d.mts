/** The server's entry (`src/main.ts`): `node <compiled> <command> …` is `blockyard <command> …`. */
export const MAIN_SOURCE: string;

/** scripts/test-build.mjs: compiles `sources` (relative to `root`) into `outdir` for a test run. */
export function buildForTests(
  root: string,
  sources: readonly string[],
  outdir: string,
): Promise<{ compiled: Map<string, string>; packages: string[] }>;
