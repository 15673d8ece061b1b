import { Agent, request } from 'undici';
import { media } from '../test/support/client.js';
import { BLOCK_V2 as V2, RUN } from '../test/support/runs.js';
import { IMPORT_JSON as IMPORT, WORKSPACE, workspaceBody } from '../test/support/structure.js';

/**
 * The mixed scenario: a runner claiming runs and reporting their status, an application team ordering
 * blocks and reading them, a list reader and watchers of the event stream, all at once; in the middle,
 * imports of `objects` workspace user groups each into a meshObjectCollection of its own (all or
 * nothing, one unit of work), one after the other with a pause between them. What it shows is whether
 * an import stalls the rest: each interactive request's latency while an import runs (pooled over the
 * imports, so that a p99 of the writes rests on more than a handful of requests), any failed request,
 * and an import's time under that load against its time alone (medians).
 */
export interface MixedOptions {
  url: string;
  ca: string;
  authorization: string;
  /** Objects of the import (the import's maximum, 1 000, in full runs). */
  objects: number;
  /** Imports under load (and alone: half as many, at least one). */
  imports: number;
  /** Seconds of interactive load before the first import starts, after the last, and between two. */
  leadSeconds: number;
  claimPath: string;
  blockPath(): string;
  listPath(): string;
  createBody(): string;
  /** Opens the event stream watchers; resolves to their stop. */
  watch(): Promise<() => Promise<unknown>>;
}

export interface LatencySummary {
  requests: number;
  p50: number;
  p99: number;
  max: number;
}

export interface MixedResult {
  objects: number;
  /** The median of `importsAloneMs`, and of `importsUnderLoadMs`. */
  importAloneMs: number;
  importUnderLoadMs: number;
  importsAloneMs: number[];
  importsUnderLoadMs: number[];
  /** Interactive requests started while an import ran, per kind and over all kinds (`all`). */
  duringImport: Record<string, LatencySummary>;
  /** The same before the first import started: what the load costs without it. */
  beforeImport: Record<string, LatencySummary>;
  /** Requests answered with an error or not at all (none expected). */
  failures: string[];
}

const USER = media('meshuser', 'v2');
const COLLECTION = 'application/vnd.vendor.api.meshobjectcollection.v1+json';
const MEMBER = 'mixed-member';

interface Timed {
  kind: string;
  started: number;
  ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function summarize(timed: Timed[]): Record<string, LatencySummary> {
  const byKind = new Map<string, number[]>([['all', []]]);
  for (const { kind, ms } of timed) {
    byKind.get('all')!.push(ms);
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind)!.push(ms);
  }
  return Object.fromEntries(
    [...byKind].map(([kind, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [kind, { requests: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 }];
    }),
  );
}

export async function runMixed(options: MixedOptions): Promise<MixedResult> {
  const agent = new Agent({ connect: { ca: options.ca }, connections: 8 });
  const auth = { authorization: options.authorization };
  const failures: string[] = [];
  const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const response = await request(`${options.url}${path}`, { method: method as 'GET', headers, body, dispatcher: agent });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${path.split('?')[0]}: ${response.statusCode} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  try {
    // The imports' workspaces and collections: one to warm the path up, then one per import.
    const alone = Array.from({ length: Math.max(1, Math.floor(options.imports / 2)) }, (_, i) => `mixed-alone-${i}`);
    const underLoad = Array.from({ length: options.imports }, (_, i) => `mixed-load-${i}`);
    await call('POST', '/api/meshobjects/meshusers', { ...auth, 'content-type': USER, accept: USER }, JSON.stringify(userBody()));
    for (const name of ['mixed-warm', ...alone, ...underLoad]) {
      await call(
        'POST',
        '/api/meshobjects/meshworkspaces',
        { ...auth, 'content-type': WORKSPACE, accept: WORKSPACE },
        JSON.stringify(workspaceBody(name)),
      );
      await call(
        'POST',
        '/api/meshobjectcollections',
        { ...auth, 'content-type': COLLECTION },
        JSON.stringify({ name, owner: 'bench', description: 'the mixed scenario', ownedByWorkspace: name }),
      );
    }
    const importInto = async (workspace: string) => {
      const started = Date.now();
      const results = (await call(
        'PUT',
        `/api/meshobjects?meshObjectCollection=${workspace}`,
        { ...auth, 'content-type': IMPORT, accept: IMPORT },
        JSON.stringify(groups(workspace, options.objects)),
      )) as unknown as { status: string; message: string }[];
      const failed = results.filter((result) => result.status !== 'SUCCESS');
      if (failed.length > 0) throw new Error(`import into ${workspace}: ${failed.length} failed, e.g. ${failed[0]!.message}`);
      return Date.now() - started;
    };
    await importInto('mixed-warm');
    const importsAloneMs: number[] = [];
    for (const workspace of alone) importsAloneMs.push(await importInto(workspace));

    const timed: Timed[] = [];
    let running = true;
    const timedCall = async <T>(kind: string, send: () => Promise<T>) => {
      const started = Date.now();
      const answer = await send();
      timed.push({ kind, started, ms: Date.now() - started });
      return answer;
    };
    const loop = async (kind: string, step: () => Promise<void>) => {
      while (running) {
        try {
          await step();
        } catch (error) {
          failures.push(`${kind}: ${(error as Error).message}`);
        }
      }
    };
    // A runner: claims a run, then reports its status with the run's token.
    const runner = async () => {
      const run = (await timedCall('claim a run', () => call('POST', options.claimPath, { ...auth, accept: RUN }))) as {
        metadata: { uuid: string };
        spec: { runToken: string };
      };
      const report = JSON.stringify({ status: 'IN_PROGRESS', steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: 'applying' }] });
      await timedCall('run status report', () =>
        call(
          'PATCH',
          `/api/meshobjects/meshbuildingblockruns/${run.metadata.uuid}/status/source/bench`,
          { authorization: `Bearer ${run.spec.runToken}`, accept: RUN, 'content-type': RUN },
          report,
        ),
      );
    };
    const stopWatching = await options.watch();
    const loops = [
      loop('runner', runner),
      loop('order', () =>
        timedCall('order a block', () =>
          call('POST', '/api/meshobjects/meshbuildingblocks', { ...auth, accept: V2, 'content-type': V2 }, options.createBody()),
        ).then(() => undefined),
      ),
      loop('read', () => timedCall('GET block', () => call('GET', options.blockPath(), { ...auth, accept: V2 })).then(() => undefined)),
      loop('list', () => timedCall('list 50', () => call('GET', options.listPath(), { ...auth, accept: V2 })).then(() => undefined)),
    ];
    const pause = () => new Promise((resolve) => setTimeout(resolve, options.leadSeconds * 1000));
    const importsUnderLoadMs: number[] = [];
    /** When each import under load ran: [started, ended). */
    const windows: [number, number][] = [];
    for (const workspace of underLoad) {
      await pause();
      const started = Date.now();
      try {
        importsUnderLoadMs.push(await importInto(workspace));
      } catch (error) {
        failures.push(`import: ${(error as Error).message}`);
      }
      windows.push([started, Date.now()]);
    }
    await pause();
    running = false;
    await Promise.all(loops);
    await stopWatching();
    return {
      objects: options.objects,
      importAloneMs: median(importsAloneMs),
      importUnderLoadMs: median(importsUnderLoadMs),
      importsAloneMs,
      importsUnderLoadMs,
      duringImport: summarize(timed.filter((t) => windows.some(([from, to]) => t.started >= from && t.started < to))),
      beforeImport: summarize(timed.filter((t) => t.started < windows[0]![0])),
      failures,
    };
  } finally {
    await agent.close();
  }
}

const userBody = () => ({
  apiVersion: 'v2',
  kind: 'meshUser',
  metadata: { name: MEMBER },
  spec: { email: 'mixed-member@example.com', firstName: 'Mixed', lastName: 'Member' },
});
const groups = (workspace: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'meshWorkspaceUserGroup',
    metadata: { name: `group-${i}`, ownedByWorkspace: workspace },
    spec: { displayName: `group ${i}`, members: [MEMBER] },
  }));
