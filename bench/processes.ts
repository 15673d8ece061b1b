import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** User plus system CPU time of a process (all its threads), ms, from `/proc`. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The tree of `commit` of the repository at `root`, extracted into a temporary directory sharing root's node_modules (the caller removes it). */
export function treeOf(root: string, commit: string): string {
  const tree = mkdtempSync(path.join(tmpdir(), 'blockyard-tree-'));
  execSync(`git archive ${commit} | tar -x -C ${tree}`, { cwd: root, stdio: 'inherit' });
  symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
  return tree;
}
