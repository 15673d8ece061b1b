import { useMemo, useState } from 'preact/hooks';
import { ApiError, MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { besideField } from '../field-errors.js';
import {
  blockValues,
  changedInputs,
  fieldOfMessage,
  formErrors,
  formFields,
  typeLabel,
  waitingFields,
  type FormValues,
} from '../input-form.js';
import { LIVE_LABELS, subjectOfData, useLiveChanges } from '../live.js';
import { Badge, ConfirmButton, errorText, formatTime, go, Page, Show, useLoad, FormSubmit } from '../ui.js';
import { BlockTable, targetOf } from './blocks.js';
import { authorLabel, keyNames } from './events.js';
import { FieldControl, operates } from './order.js';

interface BlockData {
  block: Json;
  /** The tenant's full name, when the caller may read the tenant. */
  tenantName: string | undefined;
  /** The runs with their steps, or why they cannot be shown. */
  runs: { run: Json; steps: Json[] }[] | string;
  children: Json[];
  /** The names of the blocks of its workspace (its parents are among them), by uuid. */
  names: Map<string, string>;
  /** The version and its definition as the caller reads them; undefined when it may not. */
  version: Json | undefined;
  definition: Json | undefined;
  /** Who ordered the block, from its "created" event (undefined without the event log). */
  orderedBy: string | undefined;
}

const withSteps = async (session: Session, run: Json) => ({
  run,
  steps: (await session.get<{ steps: Json[] }>(`${PATHS.runs}/${run.metadata.uuid}/logs`, MEDIA.run).catch(() => ({ steps: [] }))).steps,
});

const OPAQUE_RUNS = 'The runs of this block are shown to its platform operators only (its definition does not make them transparent).';

/**
 * A block's runs: those who may list runs (operators) see them all; a consumer reads the latest when
 * the definition makes runs transparent. Nothing is asked that the index or the version says is refused.
 */
async function loadRuns(session: Session, block: Json, version: Json | undefined): Promise<BlockData['runs']> {
  if (session.relations.has('meshbuildingblockruns')) {
    try {
      const runs = await session.all<Json>(
        `${PATHS.runs}${query({ buildingBlockUuid: block.metadata.uuid })}`,
        MEDIA.run,
        'meshBuildingBlockRuns',
      );
      return await Promise.all(runs.reverse().map((run) => withSteps(session, run)));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 403) throw error;
    }
  }
  const latest = block.status.latestRunUuid as string | null;
  if (!latest) return [];
  if (version && !version.spec.runTransparency) return OPAQUE_RUNS;
  try {
    return [await withSteps(session, await session.get<Json>(`${PATHS.runs}/${latest}`, MEDIA.run))];
  } catch {
    return OPAQUE_RUNS;
  }
}

/** The version and definition a block was ordered from, as far as the caller may read them. */
async function loadOrigin(session: Session, block: Json): Promise<{ version: Json | undefined; definition: Json | undefined }> {
  const version = await session
    .get<Json>(`${PATHS.versions}/${encodeURIComponent(block.spec.buildingBlockDefinitionVersionRef.uuid)}`, MEDIA.version)
    .catch(() => undefined);
  const definitionUuid = version?.spec.buildingBlockDefinitionRef?.uuid as string | undefined;
  const definition = definitionUuid
    ? await session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(definitionUuid)}`, MEDIA.definition).catch(() => undefined)
    : undefined;
  return { version, definition };
}

/** The author of the block's "created" event, by name where the caller may read it. */
async function loadOrderedBy(session: Session, uuid: string): Promise<string | undefined> {
  const created = await session
    .list<Json>(`${PATHS.events}${query({ title: 'Building Block Created', description: uuid, size: 1 })}`, MEDIA.event, 'meshEventLogs')
    .catch(() => undefined);
  const author = created?.items[0]?.spec.author as Json | undefined;
  if (!author) return undefined;
  return authorLabel(author, author.authorType === 'ApiKey' ? await keyNames(session, [author.identifier]) : new Map());
}

async function loadBlock(session: Session, uuid: string): Promise<BlockData> {
  const block = await session.get<Json>(`${PATHS.blocks}/${encodeURIComponent(uuid)}`, MEDIA.block);
  const tenantUuid = block.spec.targetRef?.kind === 'meshTenant' ? (block.spec.targetRef.uuid as string) : undefined;
  const originLoaded = loadOrigin(session, block);
  const [runs, siblings, tenant, origin, orderedBy] = await Promise.all([
    originLoaded.then(({ version }) => loadRuns(session, block, version)),
    session
      .all<Json>(`${PATHS.blocks}${query({ workspaceIdentifier: block.metadata.ownedByWorkspace })}`, MEDIA.block, 'meshBuildingBlocks')
      .catch(() => []),
    tenantUuid ? session.get<Json>(`${PATHS.tenants}/${tenantUuid}`, MEDIA.tenant).catch(() => undefined) : undefined,
    originLoaded,
    loadOrderedBy(session, uuid),
  ]);
  const children = siblings.filter((other) =>
    (other.spec.parentBuildingBlocks ?? []).some((parent: Json) => parent.buildingBlockUuid === uuid),
  );
  const names = new Map(siblings.map((other) => [other.metadata.uuid as string, other.spec.displayName as string]));
  return { block, runs, children, names, tenantName: tenant?.status?.tenantName, ...origin, orderedBy };
}

/** A span of time in words: "45 s", "3 min 5 s", "2 h 10 min". */
export function duration(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How long a run waited for a runner and how long it ran (or runs, so far). */
function runTimes(run: Json): string {
  const { createdOn, claimedOn, endedOn } = run.metadata as { createdOn: string; claimedOn?: string; endedOn?: string };
  if (!claimedOn) return endedOn ? `ended after ${duration(createdOn, endedOn)} without a runner` : 'waiting for a runner';
  const waited = `waited ${duration(createdOn, claimedOn)} for a runner`;
  return endedOn ? `${waited}, ran ${duration(claimedOn, endedOn)}` : `${waited}, running since ${formatTime(claimedOn)}`;
}

/** The form a waiting block gets its inputs by: the block's PUT with the values filled in. */
function SupplyInputs({
  session,
  block,
  version,
  definition,
  onSaved,
}: {
  session: Session;
  block: Json;
  version: Json;
  definition: Json | undefined;
  onSaved(): void;
}) {
  const operator = block.status.status === 'WAITING_FOR_OPERATOR_INPUT' && operates(session, definition);
  const fields = useMemo(
    () => waitingFields(formFields(version.spec.inputs ?? {}, operator), version.spec.inputs ?? {}, block.spec.inputs ?? []),
    [version, operator],
  );
  const initial = useMemo(() => blockValues(fields, version.spec.inputs ?? {}, block.spec.inputs ?? []), [fields]);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setFormError(undefined);
    const problems = formErrors(fields, values);
    setErrors(problems);
    const first = Object.keys(problems)[0];
    if (first) {
      document.getElementById(`input-${first}`)?.focus();
      return;
    }
    const inputs = changedInputs(fields, initial, values);
    setBusy(true);
    try {
      await session.request('PUT', `${PATHS.blocks}/${block.metadata.uuid}`, {
        accept: MEDIA.block,
        body: {
          apiVersion: 'v2-preview',
          kind: 'meshBuildingBlock',
          spec: {
            displayName: block.spec.displayName,
            buildingBlockDefinitionVersionRef: block.spec.buildingBlockDefinitionVersionRef,
            targetRef: block.spec.targetRef,
            inputs,
            parentBuildingBlocks: block.spec.parentBuildingBlocks ?? [],
          },
        },
      });
      onSaved();
    } catch (failure) {
      const field =
        failure instanceof ApiError
          ? fieldOfMessage(
              failure.message,
              inputs.map((input) => input.key),
            )
          : undefined;
      if (field && fields.some((candidate) => candidate.key === field)) {
        setErrors({ [field]: besideField(errorText(failure)) });
        document.getElementById(`input-${field}`)?.focus();
      } else setFormError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  if (fields.length === 0) return null;
  return (
    <section aria-labelledby="supply-title" class="notice">
      <h2 id="supply-title">{operator ? 'This block waits for its operator inputs' : 'This block waits for your inputs'}</h2>
      <p>It runs once the inputs marked required are given.</p>
      <form class="order" noValidate onSubmit={(event) => void submit(event)}>
        {fields.map((field) => (
          <FieldControl
            key={field.key}
            field={field}
            value={values[field.key]!}
            error={errors[field.key]}
            onChange={(value) => setValues({ ...values, [field.key]: value })}
          />
        ))}
        <FormSubmit error={formError} busy={busy} label="Save inputs and run" busyLabel="Saving…" />
      </form>
    </section>
  );
}

/** A failed block runs again (`POST …/trigger-run`); the page follows the new run live. */
function RunAgain({ session, block, onStarted }: { session: Session; block: Json; onStarted(): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await session.request('POST', `${PATHS.blocks}/${block.metadata.uuid}/trigger-run`);
      onStarted();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="primary" disabled={busy} onClick={() => void run()}>
        {busy ? 'Starting…' : 'Run again'}
      </button>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** Inputs and outputs by the names the version gives them; sensitive values only as their hash, never in plaintext. */
function Values({ entries, labels, empty }: { entries: Json[]; labels: Json | undefined; empty: string }) {
  if (entries.length === 0) return <p class="empty">{empty}</p>;
  return (
    <dl class="values">
      {entries.map((entry) => (
        <div key={entry.key}>
          <dt>
            {labels?.[entry.key]?.displayName ?? entry.key}{' '}
            {entry.valueType ? <span class="muted">({typeLabel(entry.valueType)})</span> : null}
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
            Run {run.spec.runNumber} ({run.spec.behavior}) <Badge value={run.status} />{' '}
            <span class="muted">
              requested {formatTime(run.metadata.createdOn)} · {runTimes(run)}
            </span>
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
  const live = useLiveChanges(session, (event) => subjectOfData(event).blockUuid === uuid || event.includes(uuid), data.reload);
  return (
    <Show loaded={data}>
      {({ block, runs, children, names, tenantName, version, definition, orderedBy }) => (
        <Page
          title={block.spec.displayName}
          actions={
            <>
              {block.status.status === 'FAILED' && !block.metadata.markedForDeletionOn ? (
                <RunAgain session={session} block={block} onStarted={data.reload} />
              ) : null}
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
              <dt>Definition</dt>
              <dd>
                {definition ? (
                  <a href={`#/marketplace/${definition.metadata.uuid}`}>{definition.spec.displayName}</a>
                ) : (
                  <span class="muted">not shown to you</span>
                )}
              </dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd>{version ? `version ${version.spec.versionNumber}` : <span class="muted">not shown to you</span>}</dd>
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
              <dt>Ordered</dt>
              <dd>
                {formatTime(block.metadata.createdOn)}
                {orderedBy ? ` by ${orderedBy}` : ''}
              </dd>
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
          {version &&
          (block.status.status === 'WAITING_FOR_USER_INPUT' || block.status.status === 'WAITING_FOR_OPERATOR_INPUT') &&
          !block.metadata.markedForDeletionOn ? (
            <SupplyInputs
              key={block.status.status}
              session={session}
              block={block}
              version={version}
              definition={definition}
              onSaved={data.reload}
            />
          ) : null}
          <div class="columns">
            <section aria-labelledby="inputs-title">
              <h2 id="inputs-title">Inputs</h2>
              <Values entries={block.spec.inputs ?? []} labels={version?.spec.inputs} empty="No inputs." />
            </section>
            <section aria-labelledby="outputs-title" data-testid="outputs">
              <h2 id="outputs-title">Outputs</h2>
              <Values entries={block.status.outputs ?? []} labels={version?.spec.outputs} empty="No outputs yet." />
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
                    Parent:{' '}
                    <a href={`#/blocks/${parent.buildingBlockUuid}`}>{names.get(parent.buildingBlockUuid) ?? parent.buildingBlockUuid}</a>
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
