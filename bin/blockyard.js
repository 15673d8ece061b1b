#!/usr/bin/env node
// Entry point: the server (`npx blockyard serve`), the operator commands (`npx blockyard admin ...`) and the
// client for people (`npx blockyard login|get|apply|delete|runs|events`); `npx blockyard --help` lists them.
// Runs the compiled CLI (`npm run build`; `npm start` builds first when the sources changed); in a fresh clone that was
// never built, the sources run through tsx (a dev dependency) instead.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('blockyard: not built yet: run `npm run build` (or `npm start`) first\n');
    process.exit(2);
  }
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
