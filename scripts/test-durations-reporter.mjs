// A reporter for Node's test runner (scripts/run-tests.mjs adds it beside `spec`): writes how long each
// file's tests took, as JSON `{ "<file>": ms }`, for the runner to start the longest files first next time.
/** A test file, as written (`.test.ts`) or as compiled for the run (`.test.mjs`, scripts/test-build.mjs). */
const isTestFile = (file) => typeof file === 'string' && /\.test\.m?[jt]s$/.test(file);

export default async function* durations(source) {
  const byFile = {};
  // The runner reports a file's tests together. A suite declared by a helper (describeEachDatabase in
  // test/support/server.ts) names the helper's file, its tests the test file: the last one seen.
  let testFile;
  for await (const event of source) {
    const file = event.data?.file;
    if (isTestFile(file)) testFile = file;
    // A file's top-level tests run one after another: their durations add up to the file's.
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const key = isTestFile(file) ? file : testFile;
      if (key) byFile[key] = (byFile[key] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
  }
  yield `${JSON.stringify(byFile)}\n`;
}
