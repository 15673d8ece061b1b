// A reporter for Node's test runner (scripts/run-tests.mjs adds it beside `spec`): writes how long each
// file's tests took, as JSON `{ "<file>": ms }`, for the runner to start the longest files first next time.
export default async function* durations(source) {
  const byFile = {};
  for await (const event of source) {
    // A file's top-level tests run one after another: their durations add up to the file's.
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile[event.data.file] = (byFile[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
  }
  yield `${JSON.stringify(byFile)}\n`;
}
