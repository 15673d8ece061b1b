#!/usr/bin/env node
// Operator entry point (`npx blockyard serve`, `npx blockyard admin ...`, `npx blockyard --help`).
// Runs the compiled CLI (`npm run build`, which `npm start` does first); in a fresh clone that was
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
