import { refusalMessage, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import { followEvents } from './events.js';
import type { Printer } from './get.js';
import { requireKind } from './get.js';
import { visible } from './terminal.js';

/** A step of `GET …/meshbuildingblockruns/{uuid}/logs`. */
interface LogStep {
  id: string;
  sourceId: string;
  displayName: string;
  status: string;
  userMessage: string | null;
  updatedOn?: string;
}

interface WireRun {
  metadata: { uuid: string; endedOn?: string };
  spec: { runNumber: number; behavior: string; buildingBlock: { uuid: string } };
  status: string;
}

/** One line per step as it is now: when, which, its status and its user message (made visible: a runner wrote them). */
export function formatStep(step: LogStep): string {
  return visible(
    `${step.updatedOn ?? '-'}  ${step.displayName} (${step.sourceId}/${step.id})  ${step.status}${step.userMessage ? `  ${step.userMessage}` : ''}`,
  );
}

/**
 * The run `id` names: a block's latest run when it is a block's uuid (what people know), else the
 * run of that uuid. A block the caller may not read is looked up as a run.
 */
export async function runOf(client: ServerClient, id: string): Promise<string> {
  const blocks = requireKind('blocks');
  const answer = await client.request('GET', `${blocks.path}/${encodeURIComponent(id)}`, { accept: blocks.accept });
  if (answer.status === 404 || answer.status === 403 || answer.status === 400) return id;
  if (answer.status !== 200) throw new CliError(refusalMessage(`block ${id}`, answer));
  const block = JSON.parse(answer.body) as { status: { latestRunUuid?: string | null } };
  if (!block.status.latestRunUuid) throw new CliError(`block ${id} has no run yet`);
  return block.status.latestRunUuid;
}

/**
 * `blockyard runs logs <block or run> [--follow]`: the run's steps and user messages. Following, a
 * step is printed again when it changed; the run's events (its block's, on the event stream) say when
 * to look, and the run's end ends the command.
 */
export async function runLogs(client: ServerClient, id: string, follow: boolean, printer: Printer): Promise<void> {
  const runs = requireKind('runs');
  const runUuid = await runOf(client, id);
  const runPath = `${runs.path}/${encodeURIComponent(runUuid)}`;
  const printed = new Map<string, string>();
  /** Prints what changed since the last look; true when the run has ended. */
  const look = async (): Promise<boolean> => {
    const run = await client.getJson<WireRun>(runPath, runs.accept, `run ${runUuid}`);
    const { steps } = await client.getJson<{ steps: LogStep[] }>(`${runPath}/logs`, runs.accept, `the logs of run ${runUuid}`);
    for (const step of steps) {
      const line = formatStep(step);
      const key = `${step.sourceId}/${step.id}`;
      if (printed.get(key) !== line) printer.out(`${line}\n`);
      printed.set(key, line);
    }
    const ended = run.metadata.endedOn !== undefined;
    if (ended && follow) printer.out(`run ${run.spec.runNumber} (${run.spec.behavior}) ${run.status}\n`);
    return ended;
  };
  if (!follow) {
    await look();
    return;
  }
  const { spec } = await client.getJson<WireRun>(runPath, runs.accept, `run ${runUuid}`);
  // The run's events describe it by its block; looking only after the stream is open misses nothing.
  const query = new URLSearchParams({ title: 'Building Block Run', description: spec.buildingBlock.uuid });
  await followEvents(client, {
    query,
    onOpen: look,
    // An event's content is the run's answer (docs/events.md): its uuid in metadata.
    onEvent: async (event) => ((event.spec.content?.metadata as { uuid?: string } | undefined)?.uuid === runUuid ? look() : false),
    note: (line) => printer.note(`${visible(line)}\n`),
  });
}
