import { execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** User plus system CPU time of a process (all its threads), ms, from `/proc`. */
export function cpuMs(pid: number): number {
  return cpuMsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User plus system CPU time, ms, from a line of `/proc/<pid>/stat`. */
function cpuMsOf(stat: string): number {
  const fields = stat.split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The tree of `commit` of the repository at `root`, extracted into a temporary directory sharing root's node_modules (the caller removes it). */
export function treeOf(root: string, commit: string): string {
  const tree = mkdtempSync(path.join(tmpdir(), 'blockyard-tree-'));
  execSync(`git archive ${commit} | tar -x -C ${tree}`, { cwd: root, stdio: 'inherit' });
  symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
  return tree;
}

/**
 * The machine's CPU time since boot, ms, all cores: `busy` (everything but idle and I/O wait) and
 * `total`, from `/proc/stat`. Their differences over a burst give the share of the machine that was
 * busy: whether the cores had room left for more work.
 */
export function machineCpuMs(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const [, , , idle, ioWait] = fields;
  return { busy: (total - idle! - ioWait!) * 10, total: total * 10 };
}

/** User plus system CPU time of every PostgreSQL process on this machine (its backends, writers, checkpointer), ms, from `/proc`. */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (stat.includes(' (postgres) ')) total += cpuMsOf(stat);
  }
  return total;
}
