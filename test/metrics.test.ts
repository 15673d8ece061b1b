/**
 * Prometheus metrics (docs/metrics.md): `/metrics` on the API's port for admins only, the same
 * exposition without credentials on the port BLOCKYARD_METRICS_PORT opens, each metric fed by what it
 * measures, and the Grafana dashboard in docs/ asking only for metrics the server serves.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { before, it } from 'node:test';
import { basic, describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { keyToken } from './support/matrix.js';
import { createBlock, registerRunner, runnerDefinition, runWorld, tenantTarget, waitFor } from './support/runs.js';
import { openStream } from './support/sse.js';
import { createWorkspace, PATHS, unique, WORKSPACE } from './support/structure.js';

const DASHBOARD = new URL('../docs/grafana/blockyard-dashboard.json', import.meta.url);

/** One sample line of the text format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Exposition {
  samples: Sample[];
  /** Metric families by their `# TYPE` line: name → counter, gauge, histogram, summary. */
  types: Map<string, string>;
}

/** Parses the Prometheus text format 0.0.4 (as prom-client writes it). */
function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice('# TYPE '.length).split(' ');
      types.set(name!, type!);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line of the text format: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels` (undefined: none). */
function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = exposition.samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  assert.ok(found.length <= 1, `at most one sample of ${name} ${JSON.stringify(labels)}: ${JSON.stringify(found)}`);
  return found[0]?.value;
}

/** A port nothing listens on right now (the metrics listener takes it next). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Metric names a PromQL expression names (ours all begin with `blockyard_`). */
const metricNamesIn = (expr: string) => [...new Set(expr.match(/\bblockyard_[a-zA-Z0-9_:]*/g) ?? [])];

/** Whether `name` can be queried from what is served: a family, or a histogram's (summary's) series. */
function served(types: Map<string, string>, name: string): boolean {
  if (types.has(name)) return true;
  const suffix = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (!suffix) return false;
  const family = types.get(suffix[1]!);
  return family === 'histogram' || (family === 'summary' && suffix[2] !== 'bucket');
}

const env: Record<string, string> = {};
before(async () => {
  env.BLOCKYARD_METRICS_PORT = String(await freePort());
});

describeEachDatabase(
  'metrics',
  (ctx) => {
    const scrape = async () => {
      const response = await ctx.client.get('/metrics');
      assert.equal(response.status, 200, response.text);
      return parseExposition(response.text);
    };

    it('/metrics is for admins: 401 without credentials, 403 for a key holding no ADM_ code, 200 in the Prometheus text format for admins', async () => {
      const anonymous = await ctx.client.get('/metrics', { anonymous: true });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.json.errorCode, 'Unauthorized');
      assert.ok(anonymous.headers['www-authenticate']);

      const workspace = unique('metrics-ws');
      await createWorkspace(ctx.client, workspace);
      const member = await keyToken(ctx.client, workspace, ['WORKSPACE_LIST', 'BUILDINGBLOCK_LIST', 'EVENTLOG_LIST']);
      const refused = await ctx.client.get('/metrics', { headers: { authorization: `Bearer ${member.token}` } });
      assert.equal(refused.status, 403);
      assert.equal(refused.json.errorCode, 'Forbidden');

      const admin = await keyToken(ctx.client, workspace, ['ADM_WORKSPACE_LIST']);
      const byKey = await ctx.client.get('/metrics', { headers: { authorization: `Bearer ${admin.token}` } });
      assert.equal(byKey.status, 200, 'a key holding an ADM_ code reads the metrics');
      const byUser = await ctx.client.get('/metrics');
      assert.equal(byUser.status, 200);
      assert.match(byUser.headers['content-type'] ?? '', /^text\/plain; version=0\.0\.4/);
      const exposition = parseExposition(byUser.text);
      for (const name of [
        'blockyard_http_requests_total',
        'blockyard_http_request_duration_seconds',
        'blockyard_process_cpu_seconds_total',
        'blockyard_process_resident_memory_bytes',
        'blockyard_nodejs_eventloop_lag_p99_seconds',
      ]) {
        assert.ok(exposition.types.has(name), `${name} is served`);
      }
      assert.equal(exposition.types.get('blockyard_http_request_duration_seconds'), 'histogram');
    });

    it('the metrics port serves the same metrics without credentials, GET /metrics only', async () => {
      const url = ctx.server.server.metricsUrl;
      assert.equal(url, `http://127.0.0.1:${env.BLOCKYARD_METRICS_PORT}/metrics`);
      const plain = await fetch(url!);
      assert.equal(plain.status, 200);
      assert.match(plain.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const [separate, onApi] = [parseExposition(await plain.text()), await scrape()];
      assert.deepEqual([...separate.types.keys()].sort(), [...onApi.types.keys()].sort());
      assert.equal((await fetch(url!, { method: 'POST' })).status, 404);
      assert.equal((await fetch(url!.replace('/metrics', '/api'))).status, 404);
      assert.equal((await fetch(url!.replace('/metrics', '/healthz'))).status, 404);
    });

    it('counts and times each request under its route template, method and status, never under the URL sent', async () => {
      const workspace = unique('metrics-route');
      await createWorkspace(ctx.client, workspace);
      assert.equal((await ctx.client.get(`${PATHS.workspaces}/${workspace}`, { headers: { accept: WORKSPACE } })).status, 200);
      const nowhere = unique('no-such-path');
      assert.equal((await ctx.client.get(`/${nowhere}/${nowhere}`)).status, 404);
      const text = (await ctx.client.get('/metrics')).text;
      assert.ok(!text.includes(workspace), 'no series names the workspace read');
      assert.ok(!text.includes(nowhere), 'no series names the path nobody serves');
      const exposition = parseExposition(text);
      const reads = exposition.samples.filter(
        (s) =>
          s.name === 'blockyard_http_requests_total' &&
          s.labels.method === 'GET' &&
          s.labels.status_code === '200' &&
          /^\/api\/meshobjects\/meshworkspaces\/:\w+$/.test(s.labels.route ?? ''),
      );
      assert.equal(reads.length, 1, JSON.stringify(reads));
      assert.ok(reads[0]!.value >= 1);
      const route = reads[0]!.labels.route!;
      assert.ok(
        (valueOf(exposition, 'blockyard_http_request_duration_seconds_count', { method: 'GET', route, status_code: '200' }) ?? 0) >= 1,
      );
      assert.ok(
        (valueOf(exposition, 'blockyard_http_request_duration_seconds_bucket', { method: 'GET', route, status_code: '200', le: '+Inf' }) ??
          0) >= 1,
      );
      assert.ok(
        (valueOf(exposition, 'blockyard_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' }) ?? 0) >= 1,
        'a path no route matches counts as "unmatched"',
      );
      assert.ok(
        (valueOf(exposition, 'blockyard_http_requests_total', { method: 'POST', route: PATHS.workspaces, status_code: '201' }) ?? 0) >= 1,
      );
    });

    it('shows the runs waiting for each runner, and transactions’ waits and the connections of the database', async () => {
      const world = await runWorld(ctx.client);
      const busy = (await registerRunner(ctx.client, world.provider)).metadata.uuid as string;
      const idle = (await registerRunner(ctx.client, world.provider)).metadata.uuid as string;
      const definition = await runnerDefinition(ctx.client, world.provider, busy);
      await createBlock(ctx.client, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
      const exposition = await scrape();
      assert.equal(valueOf(exposition, 'blockyard_runs_waiting', { runner: busy }), 1);
      assert.equal(valueOf(exposition, 'blockyard_runs_waiting', { runner: idle }), 0);

      assert.ok(
        (valueOf(exposition, 'blockyard_db_transaction_wait_seconds_count') ?? 0) > 0,
        'the writes above waited (if only a moment) for a connection or the writer',
      );
      assert.equal(valueOf(exposition, 'blockyard_db_pool_max_connections'), ctx.server.dialect === 'postgres' ? 10 : 1);
      const open = valueOf(exposition, 'blockyard_db_pool_connections') ?? -1;
      assert.ok(open >= 1, `connections open: ${open}`);
      assert.ok((valueOf(exposition, 'blockyard_db_pool_connections_in_use') ?? -1) >= 0);
      assert.equal(valueOf(exposition, 'blockyard_db_pool_waiting'), 0);
    });

    it('counts refused credentials by scheme', async () => {
      const before = await scrape();
      const count = (exposition: typeof before, scheme: string) => valueOf(exposition, 'blockyard_auth_failures_total', { scheme }) ?? 0;
      assert.equal(
        (await ctx.client.get('/api', { headers: { authorization: basic(TEST_ADMIN.username, 'not-the-password-1') } })).status,
        401,
      );
      assert.equal((await ctx.client.get('/api', { headers: { authorization: 'Bearer not-a-token' } })).status, 401);
      assert.equal((await ctx.client.get('/api', { headers: { authorization: 'Bearer not-a-token' } })).status, 401);
      const after = await scrape();
      assert.equal(count(after, 'basic') - count(before, 'basic'), 1);
      assert.equal(count(after, 'bearer') - count(before, 'bearer'), 2);
      // No credential at all is no failed attempt.
      assert.equal((await ctx.client.get('/api', { anonymous: true })).status, 401);
      assert.deepEqual(
        (await scrape()).samples.filter((s) => s.name === 'blockyard_auth_failures_total'),
        after.samples.filter((s) => s.name === 'blockyard_auth_failures_total'),
      );
    });

    it('counts the open event streams and how far behind they are', async () => {
      const ca = await readFile(`${ctx.server.dataDir}/tls/cert.pem`, 'utf8');
      assert.equal(valueOf(await scrape(), 'blockyard_event_streams_open'), 0);
      const stream = await openStream(ctx.server.url, ca, '/api/meshobjects/mesheventlogs', {
        authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password),
        accept: 'text/event-stream',
      });
      try {
        assert.equal(stream.status, 200);
        const open = await scrape();
        assert.equal(valueOf(open, 'blockyard_event_streams_open'), 1);
        assert.ok((valueOf(open, 'blockyard_event_stream_lag_events') ?? -1) >= 0);
        assert.ok((valueOf(open, 'blockyard_event_stream_lag_seconds') ?? -1) >= 0);
        // A change is handed to the stream: it is up to date again.
        await createWorkspace(ctx.client, unique('metrics-stream'));
        await waitFor('the stream receives the event', async () => (stream.count > 0 ? true : undefined));
        // The feed reads a commit's events in one go, so the stream is up to date by now or a moment later.
        await waitFor('the stream is up to date', async () => {
          const caughtUp = await scrape();
          return valueOf(caughtUp, 'blockyard_event_stream_lag_events') === 0 &&
            valueOf(caughtUp, 'blockyard_event_stream_lag_seconds') === 0
            ? true
            : undefined;
        });
      } finally {
        stream.close();
      }
      await waitFor('the closed stream is no longer counted', async () =>
        valueOf(await scrape(), 'blockyard_event_streams_open') === 0 ? true : undefined,
      );
    });

    it('the Grafana dashboard in docs/ is a dashboard whose every query names metrics this server serves', async () => {
      const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
        title?: unknown;
        schemaVersion?: unknown;
        panels?: { title?: unknown; type?: unknown; gridPos?: unknown; targets?: { expr?: unknown }[] }[];
      };
      assert.equal(typeof dashboard.title, 'string');
      assert.equal(typeof dashboard.schemaVersion, 'number');
      assert.ok(Array.isArray(dashboard.panels) && dashboard.panels.length >= 8, 'panels');
      const { types } = await scrape();
      const used = new Set<string>();
      for (const panel of dashboard.panels) {
        assert.equal(typeof panel.title, 'string', JSON.stringify(panel).slice(0, 200));
        if (panel.type === 'row') continue;
        assert.equal(typeof panel.type, 'string');
        assert.ok(panel.gridPos && typeof panel.gridPos === 'object', `${String(panel.title)}: gridPos`);
        assert.ok(Array.isArray(panel.targets) && panel.targets.length > 0, `${String(panel.title)}: targets`);
        for (const target of panel.targets) {
          assert.equal(typeof target.expr, 'string', `${String(panel.title)}: a PromQL expression`);
          const names = metricNamesIn(target.expr as string);
          assert.ok(names.length > 0, `${String(panel.title)}: ${String(target.expr)} names a metric`);
          for (const name of names) {
            assert.ok(served(types, name), `${String(panel.title)}: ${name} is not served`);
            used.add(types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, ''));
          }
        }
      }
      // Every family of ours is on the dashboard (the process metrics: CPU, memory, event-loop lag).
      const ours = [...types.keys()].filter((name) => !/^blockyard_(process|nodejs)_/.test(name));
      assert.deepEqual(
        ours.filter((name) => !used.has(name)),
        [],
        'metrics the dashboard does not show',
      );
      for (const name of [
        'blockyard_process_cpu_seconds_total',
        'blockyard_process_resident_memory_bytes',
        'blockyard_nodejs_eventloop_lag_p99_seconds',
      ])
        assert.ok(used.has(name), `${name} on the dashboard`);
    });
  },
  env,
);
