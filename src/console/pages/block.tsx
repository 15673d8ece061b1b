import { ApiError, MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { LIVE_LABELS, useLiveChanges } from '../live.js';
import { Badge, ConfirmButton, formatTime, go, Page, Show, useLoad } from '../ui.js';
import { BlockTable, targetOf } from './blocks.js';

interface BlockData {
  block: Json;
  /** The tenant's full name, when the caller may read the tenant. */
  tenantName: string | undefined;
  /** The runs with their steps, or why they cannot be shown. */
  runs: { run: Json; steps: Json[] }[] | string;
  children: Json[];
}

const withSteps = async (session: Session, run: Json) => ({
  run,
  steps: (await session.get<{ steps: Json[] }>(`${PATHS.runs}/${run.metadata.uuid}/logs`, MEDIA.run).catch(() => ({ steps: [] }))).steps,
});

/**
 * A block's runs: operators list them all; a consumer reads the latest when the definition makes runs
 * transparent; otherwise the API's refusal says why.
 */
async function loadRuns(session: Session, block: Json): Promise<BlockData['runs']> {
  try {
    const runs = await session.all<Json>(`${PATHS.runs}${query({ buildingBlockUuid: block.metadata.uuid })}`, MEDIA.run, 'meshBuildingBlockRuns');
    return await Promise.all(runs.reverse().map((run) => withSteps(session, run)));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    const latest = block.status.latestRunUuid as string | null;
    if (!latest) return [];
    try {
      return [await withSteps(session, await session.get<Json>(`${PATHS.runs}/${latest}`, MEDIA.run))];
    } catch {
      return 'The runs of this block are shown to its platform operators only (its definition does not make them transparent).';
    }
  }
}

async function loadBlock(session: Session, uuid: string): Promise<BlockData> {
  const block = await session.get<Json>(`${PATHS.blocks}/${encodeURIComponent(uuid)}`, MEDIA.block);
  const tenantUuid = block.spec.targetRef?.kind === 'meshTenant' ? (block.spec.targetRef.uuid as string) : undefined;
  const [runs, siblings, tenant] = await Promise.all([
    loadRuns(session, block),
    session.all<Json>(`${PATHS.blocks}${query({ workspaceIdentifier: block.metadata.ownedByWorkspace })}`, MEDIA.block, 'meshBuildingBlocks').catch(() => []),
    tenantUuid ? session.get<Json>(`${PATHS.tenants}/${tenantUuid}`, MEDIA.tenant).catch(() => undefined) : undefined,
  ]);
  const children = siblings.filter((other) => (other.spec.parentBuildingBlocks ?? []).some((parent: Json) => parent.buildingBlockUuid === uuid));
  return { block, runs, children, tenantName: tenant?.status?.tenantName };
}

/** Inputs and outputs; sensitive values only as their hash, never in plaintext. */
function Values({ entries, empty }: { entries: Json[]; empty: string }) {
  if (entries.length === 0) return <p class="empty">{empty}</p>;
  return (
    <dl class="values">
      {entries.map((entry) => (
        <div key={entry.key}>
          <dt>
            {entry.key} <span class="muted">{entry.valueType}</span>
          </dt>
          <dd>
            {entry.value !== null && typeof entry.value === 'object' && 'hash' in entry.value ? (
              <span class="muted">sensitive, hash {String(entry.value.hash).slice(0, 19)}…</span>
            ) : (
              <code>{typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value)}</code>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Runs({ runs }: { runs: BlockData['runs'] }) {
  if (typeof runs === 'string') return <p class="muted">{runs}</p>;
  if (runs.length === 0) return <p class="empty">No run yet.</p>;
  return (
    <ol class="runs" reversed>
      {runs.map(({ run, steps }) => (
        <li key={run.metadata.uuid}>
          <p>
            Run {run.spec.runNumber} ({run.spec.behavior}) <Badge value={run.status} /> <span class="muted">started {formatTime(run.metadata.createdOn)}</span>
          </p>
          {steps.length > 0 ? (
            <ul class="steps">
              {steps.map((step) => (
                <li key={`${step.sourceId}/${step.id}`}>
                  <Badge value={step.status ?? 'PENDING'} /> {step.displayName ?? step.id}
                  {step.userMessage ? <p class="message">{step.userMessage}</p> : null}
                  {step.systemMessage ? (
                    <details>
                      <summary>System message (operators only)</summary>
                      <pre>{step.systemMessage}</pre>
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function BlockPage({ session, uuid }: { session: Session; uuid: string }) {
  const data = useLoad(() => loadBlock(session, uuid), [uuid]);
  const live = useLiveChanges(session, (event) => event.includes(uuid), data.reload);
  return (
    <Show loaded={data}>
      {({ block, runs, children, tenantName }) => (
        <Page
          title={block.spec.displayName}
          actions={
            <>
              <ConfirmButton
                label="Delete"
                question={`Delete "${block.spec.displayName}"? Its definition decides whether what it provisioned is removed too.`}
                confirmLabel="Delete block"
                onConfirm={async () => {
                  await session.request('DELETE', `${PATHS.blocks}/${block.metadata.uuid}`);
                  // A block whose definition purges, or that never ran, is gone at once: back to the list.
                  const remaining = await session.get(`${PATHS.blocks}/${block.metadata.uuid}`, MEDIA.block).catch(() => undefined);
                  if (remaining) data.reload();
                  else go('/blocks');
                }}
              />
              {block._links?.forcePurge ? (
                <ConfirmButton
                  label="Purge"
                  question={`Purge "${block.spec.displayName}"? It is removed from Blockyard at once, whatever runs; nothing it provisioned is cleaned up.`}
                  confirmLabel="Purge block"
                  onConfirm={async () => {
                    await session.request('DELETE', `${PATHS.blocks}/${block.metadata.uuid}/purge`);
                    go('/blocks');
                  }}
                />
              ) : null}
            </>
          }
        >
          <p class="live" role="status">
            {LIVE_LABELS[live]}
          </p>
          <dl class="facts">
            <div>
              <dt>Status</dt>
              <dd data-testid="block-status">
                <Badge value={block.status.status} />
              </dd>
            </div>
            <div>
              <dt>Workspace</dt>
              <dd>{block.metadata.ownedByWorkspace}</dd>
            </div>
            <div>
              <dt>Target</dt>
              <dd>{tenantName ? `tenant ${tenantName}` : targetOf(block)}</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{formatTime(block.metadata.createdOn)}</dd>
            </div>
            {block.metadata.markedForDeletionOn ? (
              <div>
                <dt>Deletion requested</dt>
                <dd>
                  {formatTime(block.metadata.markedForDeletionOn)} by {block.metadata.markedForDeletionBy ?? '—'}
                </dd>
              </div>
            ) : null}
          </dl>
          <div class="columns">
            <section aria-labelledby="inputs-title">
              <h2 id="inputs-title">Inputs</h2>
              <Values entries={block.spec.inputs ?? []} empty="No inputs." />
            </section>
            <section aria-labelledby="outputs-title" data-testid="outputs">
              <h2 id="outputs-title">Outputs</h2>
              <Values entries={block.status.outputs ?? []} empty="No outputs yet." />
            </section>
          </div>
          <section aria-labelledby="relations-title">
            <h2 id="relations-title">Parents and children</h2>
            {(block.spec.parentBuildingBlocks ?? []).length === 0 ? (
              <p class="empty">No parent blocks.</p>
            ) : (
              <ul>
                {block.spec.parentBuildingBlocks.map((parent: Json) => (
                  <li key={parent.buildingBlockUuid}>
                    Parent: <a href={`#/blocks/${parent.buildingBlockUuid}`}>{parent.buildingBlockUuid}</a>
                  </li>
                ))}
              </ul>
            )}
            {children.length > 0 ? <BlockTable blocks={children} /> : <p class="empty">No child blocks.</p>}
          </section>
          <section aria-labelledby="runs-title">
            <h2 id="runs-title">Runs</h2>
            <Runs runs={runs} />
          </section>
        </Page>
      )}
    </Show>
  );
}
