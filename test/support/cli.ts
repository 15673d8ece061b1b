/** Runs `blockyard …` as a person would: a child process with a config file of its own (test/cli*.test.ts). */
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env: cliEnv(configFile, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.stdin.end(options.input ?? '');
  const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code, ...output })));
  return { child, output, done };
}

export const run = (configFile: string, args: string[], options: { env?: Record<string, string>; input?: string } = {}) => start(configFile, args, options).done;

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
