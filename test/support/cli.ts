/** Runs `blockyard …` as a person would: a child process with a config file of its own (test/cli*.test.ts). */
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { blockyardArgs } from './blockyard-command.js';

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a person's shell: no server settings, this config file. */
function cliEnv(configFile: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('BLOCKYARD_')) env[key] = value;
  return { ...env, BLOCKYARD_CONFIG: configFile, ...extra };
}

/** A running `blockyard …`: its output so far, and its end. (Never spawnSync: the server answers from this process.) */
export function start(configFile: string, args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
  const child = spawn(process.execPath, blockyardArgs(args), { env: cliEnv(configFile, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.stdin.end(options.input ?? '');
  const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code, ...output })));
  return { child, output, done };
}

export const run = (configFile: string, args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  start(configFile, args, options).done;

/** Asserts the exit code, showing what the CLI said when it differs. */
export function exited(result: Result, code: number): Result {
  assert.equal(result.code, code, `exit ${result.code}, expected ${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  assert.ok(!(result.stdout + result.stderr).includes('\u001b['), 'no colours when the output is not a terminal');
  return result;
}

export const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** `blockyard login` (asserting exit 0) with the server's generated certificate. */
export async function login(configFile: string, url: string, ca: string, credentials: string[]): Promise<Result> {
  return exited(await run(configFile, ['login', url, ...credentials, '--ca', ca]), 0);
}

/** Names another team may plant to take over a terminal: a fake status, a window title, a hidden link, a row overwritten, reversed text. */
export const PLANTED = {
  colour: '\u001b[32mSUCCEEDED\u001b[0m',
  title: '\u001b]0;pwned\u0007',
  link: '\u001b]8;;http://evil\u0007x\u001b]8;;\u0007',
  carriageReturn: 'ok\rFAILED',
  bidi: 'txt.\u202eexe',
  c1: '\u009b31m',
} as const;

/** Asserts the output holds no control character a terminal would interpret (newlines aside). */
export function assertInert(text: string): void {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/.exec(text);
  assert.equal(
    raw,
    null,
    `a raw control character U+${raw?.[0].codePointAt(0)!.toString(16).padStart(4, '0')} in\n${JSON.stringify(text)}`,
  );
}
