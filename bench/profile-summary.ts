import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [--after <seconds>]`: where a
 * CPU profile's time went — self time per function and inclusive time per function (each function
 * counted once per sample however deep it recurses), as shares of the sampled time. `--after` drops
 * the samples of the profile's first seconds (a server's start-up, which short runs otherwise weigh).
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
// Piped into `head`: stop quietly when the reader has had enough.
process.stdout.on('error', () => process.exit(0));
const { values: options, positionals } = parseArgs({ options: { after: { type: 'string', default: '0' } }, allowPositionals: true });
const [file, topArg] = positionals as [string, string?];
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const skipMicros = Number(options.after) * 1e6;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: Node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let counted = 0;
let elapsed = 0;
profile.samples.forEach((id, index) => {
  elapsed += profile.timeDeltas[index] ?? 0;
  if (elapsed < skipMicros) return;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') return;
  counted++;
  self.set(label(node), (self.get(label(node)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = label(byId.get(at)!);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  }
});
const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (${counted} busy samples)\n`);
  for (const [name, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${((n / counted) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
};
print('self', self);
print('inclusive', inclusive);
