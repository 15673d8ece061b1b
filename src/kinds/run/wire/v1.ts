import { Type } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder } from '../../../lib/validation.js';
import { AnyValue, DateTime, Echoed, Links, Nullable, NonEmptyShortString, ShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { objectUrl } from '../../paths.js';
import { isTransparent, type Run, type RunChange, type StepRow } from '../../block/run.js';
import type { RunUpdate, SourceRegistration } from '../model.js';
import { RUNS_PATH } from '../model.js';

const Id = Type.Union([NonEmptyShortString, Type.Integer()]);
const Text = Type.String({ maxLength: TEXT_LIMITS.runMessage });

const Registration = Type.Object({
  source: Type.Object({
    id: Id,
    externalRunId: Type.Optional(Id),
    externalId: Type.Optional(Id),
    externalRunUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    externalUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  }),
  steps: Type.Optional(
    Type.Array(Type.Object({ id: Id, displayName: Type.Optional(ShortString), status: Type.Optional(Type.String()) }), { maxItems: 1000 }),
  ),
});
const decodeRegistration = compileDecoder(Registration);

/** Registration payload (spec §2.7); accepts nulls, numeric ids and the aliases real clients send. */
function decodeRegistrationBody(body: unknown): SourceRegistration {
  const { source, steps } = decodeRegistration(body);
  const externalRunId = source.externalRunId ?? source.externalId;
  const externalRunUrl = source.externalRunUrl ?? source.externalUrl;
  return {
    sourceId: String(source.id),
    source: {
      id: String(source.id),
      ...(externalRunId !== undefined ? { externalRunId: String(externalRunId) } : {}),
      ...(externalRunUrl ? { externalRunUrl } : {}),
    },
    steps: (steps ?? []).map((step) => ({
      id: String(step.id),
      ...(step.displayName ? { displayName: step.displayName } : {}),
      ...(step.status ? { status: step.status } : {}),
    })),
  };
}

const Update = Type.Object({
  status: Type.Optional(Type.String()),
  steps: Type.Optional(
    Type.Array(
      Type.Object({
        id: Id,
        displayName: Type.Optional(ShortString),
        status: Type.Optional(Type.String()),
        userMessage: Type.Optional(Text),
        systemMessage: Type.Optional(Text),
        outputs: Type.Optional(
          Type.Record(
            ShortString,
            Type.Object({
              value: Type.Optional(Type.Unknown()),
              type: Type.Optional(Type.String()),
              isSensitive: Type.Optional(Type.Boolean()),
            }),
            { maxProperties: 500 },
          ),
        ),
      }),
      { maxItems: 1000 },
    ),
  ),
});
const decodeUpdateBody = compileDecoder(Update);

/** Update payload (spec §4.1): unknown fields ignored, and `null`, absent and `""` all mean "no change". */
function decodeUpdate(body: unknown): RunUpdate {
  const { status, steps } = decodeUpdateBody(body ?? {});
  const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  return {
    ...(given(status) ? { status } : {}),
    steps: (steps ?? []).map((step) => ({
      id: String(step.id),
      ...(given(step.displayName) ? { displayName: step.displayName } : {}),
      ...(given(step.status) ? { status: step.status } : {}),
      ...(given(step.userMessage) ? { userMessage: step.userMessage } : {}),
      ...(given(step.systemMessage) ? { systemMessage: step.systemMessage } : {}),
      ...(step.outputs ? { outputs: step.outputs } : {}),
    })),
  };
}

/**
 * Who reads a run: its runner and platform operators see everything; a consumer (a block's own
 * workspace, when the run is transparent) sees its statuses and user messages, never inputs, the
 * implementation or system messages.
 */
export type RunAudience = 'operator' | 'consumer';

/** What a reader of a run may see besides the run: a claim's token and runner-encrypted values. */
export interface RunView {
  baseUrl: string;
  audience?: RunAudience;
  claimed?: { runToken: string; inputs: unknown[]; implementation: Record<string, unknown> };
}

const RunMetadata = Type.Object({ uuid: Uuid, createdOn: DateTime, claimedOn: Type.Optional(DateTime), endedOn: Type.Optional(DateTime) });
const Answer = Type.Object(
  {
    kind: Type.Literal('meshBuildingBlockRun'),
    apiVersion: Type.Literal('v1'),
    metadata: RunMetadata,
    spec: Type.Object({
      runNumber: Type.Integer(),
      behavior: Type.String(),
      runToken: Type.Optional(Type.String({ description: 'only in the answer of a claim' })),
      trigger: AnyValue,
      buildingBlock: Type.Object({
        uuid: Uuid,
        spec: Type.Optional(Echoed({}, { description: 'operators only; inputs runner-encrypted in a claim, else secrets as {hash}' })),
      }),
      buildingBlockDefinition: Type.Object({
        uuid: Uuid,
        spec: Type.Optional(
          Echoed({}, { description: 'operators only; the implementation runner-encrypted in a claim, else secrets as {hash}' }),
        ),
      }),
    }),
    status: Type.String(),
    _links: Links,
  },
  { description: 'A consumer (the block’s workspace, transparent runs) sees no inputs, implementation or system messages.' },
);

/** The step log (`GET …/{uuid}/logs`), streamed. */
const Logs = Type.Object({
  steps: Type.Array(
    Type.Object({
      displayName: Type.String(),
      status: Type.String(),
      userMessage: Nullable(Type.String()),
      systemMessage: Nullable(Type.String({ description: 'operators only' })),
      id: Type.String(),
      sourceId: Type.String(),
      updatedOn: DateTime,
    }),
  ),
});

/** The run as runners and readers see it; a claim adds the run token and runner-encrypted values. */
function encode(run: Run, { baseUrl, claimed, audience = 'operator' }: RunView) {
  const self = objectUrl(baseUrl, RUNS_PATH, run.uuid);
  const { buildingBlock, buildingBlockDefinition, trigger } = run.snapshot;
  const head = {
    kind: 'meshBuildingBlockRun',
    apiVersion: 'v1',
    metadata: {
      uuid: run.uuid,
      createdOn: run.createdOn,
      ...(run.claimedOn ? { claimedOn: run.claimedOn } : {}),
      ...(run.endedOn ? { endedOn: run.endedOn } : {}),
    },
  };
  if (audience === 'consumer') {
    return {
      ...head,
      spec: {
        runNumber: run.runNumber,
        behavior: run.behavior,
        trigger,
        buildingBlock: { uuid: buildingBlock.uuid },
        buildingBlockDefinition: { uuid: buildingBlockDefinition.uuid },
      },
      status: run.status,
      _links: { self: { href: self }, downloadLogs: { href: `${self}/logs` } },
    };
  }
  return {
    ...head,
    spec: {
      runNumber: run.runNumber,
      behavior: run.behavior,
      ...(claimed ? { runToken: claimed.runToken } : {}),
      trigger,
      buildingBlock: {
        uuid: buildingBlock.uuid,
        spec: { ...buildingBlock.spec, inputs: claimed ? claimed.inputs : hideSecrets(buildingBlock.spec.inputs) },
      },
      buildingBlockDefinition: {
        uuid: buildingBlockDefinition.uuid,
        spec: {
          ...buildingBlockDefinition.spec,
          implementation: claimed ? claimed.implementation : hideSecrets(buildingBlockDefinition.spec.implementation),
        },
      },
    },
    // Every claim answers IN_PROGRESS (the Kotlin runners know no other value there); reads the real one.
    status: claimed ? 'IN_PROGRESS' : run.status,
    _links: {
      self: { href: self },
      // Whoever reads the run reads its step log, as much of it as its audience may (meshstack-hub's
      // get-bb-run-logs follows this link).
      downloadLogs: { href: `${self}/logs` },
      registerSource: { href: `${self}/status/source` },
      updateSource: { href: `${self}/status/source/{sourceId}`, templated: true },
      meshstackBaseUrl: { href: baseUrl },
    },
  };
}

/**
 * The step log, `{"steps": [...]}` (COMPAT §9: what the Terraform provider shows for a failed block),
 * written as the steps are read: however long a run's log is, the answer is streamed and never held
 * whole in memory. System messages are the operators'.
 */
async function* encodeLogs(steps: AsyncIterable<StepRow>, audience: RunAudience = 'operator'): AsyncIterable<string> {
  yield '{"steps":[';
  let first = true;
  for await (const step of steps) {
    yield `${first ? '' : ','}${JSON.stringify(encodeStep(step, audience))}`;
    first = false;
  }
  yield ']}';
}

/** A step as the log shows it to `audience`: system messages are the operators'. */
function encodeStep(step: StepRow, audience: RunAudience) {
  return {
    displayName: step.displayName,
    status: step.status,
    userMessage: step.userMessage ?? null,
    systemMessage: audience === 'operator' ? (step.systemMessage ?? null) : null,
    id: step.stepId,
    sourceId: step.sourceId,
    updatedOn: step.updatedOn,
  };
}

/**
 * A run as its events carry it. They are filed under the block's workspace, so they show what the
 * block's readers may read of the run: a transparent run as a consumer reads it (and its changed
 * steps as its log shows them to a consumer); of any other run only what the block's own answer
 * shows (its latest run's uuid and status). Operator-only parts (inputs, implementation, system
 * messages, outputs) are never in an event.
 */
function encodeForBlockReaders({ run, steps }: RunChange, { baseUrl }: EncodeView) {
  if (!isTransparent(run)) {
    return {
      kind: 'meshBuildingBlockRun',
      apiVersion: 'v1',
      metadata: { uuid: run.uuid },
      spec: { buildingBlock: { uuid: run.blockUuid } },
      status: run.status,
      _links: { self: { href: objectUrl(baseUrl, RUNS_PATH, run.uuid) } },
    };
  }
  const answer = encode(run, { baseUrl, audience: 'consumer' });
  return steps === undefined ? answer : { ...answer, steps: steps.map((step) => encodeStep(step, 'consumer')) };
}

/** meshBuildingBlockRun v1 (spec §2.7, §4.1, COMPAT §10). */
export const runV1 = {
  media: { kind: 'meshbuildingblockrun', version: 'v1' } as const,
  schema: Answer,
  logsSchema: Logs,
  registrationSchema: Registration,
  updateSchema: Update,
  decodeRegistration: decodeRegistrationBody,
  decodeUpdate,
  encode,
  encodeLogs,
  encodeForBlockReaders,
};
