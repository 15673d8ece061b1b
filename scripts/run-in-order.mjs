// Runs test files in the order given (scripts/run-tests.mjs puts the longest first), two at a time:
//   node --import tsx scripts/run-in-order.mjs <durations file> <file> ...
// `node --test <files>` sorts the files by name before starting them, whatever order they were given
// in; the test runner's run() keeps it. The files' processes inherit this one's `--import tsx`.
// Reports as `node --test` would with the spec reporter on stdout, and each file's duration (the
// reporter test-durations-reporter.mjs) into the durations file.
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import durations from './test-durations-reporter.mjs';

const [measured, ...files] = process.argv.slice(2);
const events = run({ files, concurrency: Number(process.env.BLOCKYARD_TEST_CONCURRENCY ?? 3), timeout: 300_000 });
const toSpec = new PassThrough({ objectMode: true });
const toDurations = new PassThrough({ objectMode: true });
toSpec.compose(new spec()).pipe(process.stdout);
const written = new Promise((resolve) => toDurations.compose(durations).pipe(createWriteStream(measured)).on('finish', resolve));
events.on('data', (event) => {
  if (event.type === 'test:fail' && !event.data.todo) process.exitCode = 1;
  toSpec.write(event);
  toDurations.write(event);
});
events.on('end', async () => {
  toSpec.end();
  toDurations.end();
  await written;
});
