import { Type } from '@sinclair/typebox';
import { hideSecrets } from '../crypto/secret-values.js';
import { compileDecoder } from '../http/validation.js';
import type { Run } from './model.js';

/** meshBuildingBlockRun v1 (spec §2.7, §4.1, COMPAT §10). */
export const RUN_VERSIONS = [{ kind: 'meshbuildingblockrun', version: 'v1' }] as const;
export const RUNS_PATH = '/api/meshobjects/meshbuildingblockruns';

/** Messages are advice-limited to 500 characters (spec §8); real runners send whole logs: keep 1 MiB. */
export const MAX_MESSAGE = 1024 * 1024;

const Id = Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Integer()]);
const Text = Type.String({ maxLength: MAX_MESSAGE });

const decodeRegistration = compileDecoder(
  Type.Object({
    source: Type.Object({
      id: Id,
      externalRunId: Type.Optional(Id),
      externalId: Type.Optional(Id),
      externalRunUrl: Type.Optional(Type.String({ maxLength: 2048 })),
      externalUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    }),
    steps: Type.Optional(Type.Array(Type.Object({ id: Id, displayName: Type.Optional(Type.String({ maxLength: 255 })), status: Type.Optional(Type.String()) }), { maxItems: 1000 })),
  }),
);

export interface Registration {
  sourceId: string;
  source: { id: string; externalRunId?: string; externalRunUrl?: string };
  steps: { id: string; displayName?: string; status?: string }[];
}

/** Registration payload (spec §2.7); accepts nulls, numeric ids and the aliases real clients send. */
export function decodeRunRegistration(body: unknown): Registration {
  const { source, steps } = decodeRegistration(body);
  const externalRunId = source.externalRunId ?? source.externalId;
  const externalRunUrl = source.externalRunUrl ?? source.externalUrl;
  return {
    sourceId: String(source.id),
    source: { id: String(source.id), ...(externalRunId !== undefined ? { externalRunId: String(externalRunId) } : {}), ...(externalRunUrl ? { externalRunUrl } : {}) },
    steps: (steps ?? []).map((step) => ({ id: String(step.id), ...(step.displayName ? { displayName: step.displayName } : {}), ...(step.status ? { status: step.status } : {}) })),
  };
}

const decodeUpdateBody = compileDecoder(
  Type.Object({
    status: Type.Optional(Type.String()),
    steps: Type.Optional(
      Type.Array(
        Type.Object({
          id: Id,
          displayName: Type.Optional(Type.String({ maxLength: 255 })),
          status: Type.Optional(Type.String()),
          userMessage: Type.Optional(Text),
          systemMessage: Type.Optional(Text),
          outputs: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), Type.Object({ value: Type.Optional(Type.Unknown()), type: Type.Optional(Type.String()), isSensitive: Type.Optional(Type.Boolean()) }), { maxProperties: 500 })),
        }),
        { maxItems: 1000 },
      ),
    ),
  }),
);

export interface StepUpdate {
  id: string;
  displayName?: string;
  status?: string;
  userMessage?: string;
  systemMessage?: string;
  outputs?: Record<string, { value?: unknown; type?: string; isSensitive?: boolean }>;
}

/** Update payload (spec §4.1): unknown fields ignored, and `null`, absent and `""` all mean "no change". */
export function decodeRunUpdate(body: unknown): { status?: string; steps: StepUpdate[] } {
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

/** The run as runners and readers see it; a claim adds the run token and runner-encrypted values. */
export function encodeRun(run: Run, baseUrl: string, claimed?: { runToken: string; inputs: unknown[]; implementation: Record<string, unknown> }) {
  const self = `${baseUrl}${RUNS_PATH}/${run.uuid}`;
  const { buildingBlock, buildingBlockDefinition, trigger } = run.snapshot;
  return {
    kind: 'meshBuildingBlockRun',
    apiVersion: 'v1',
    metadata: { uuid: run.uuid, createdOn: run.createdOn, ...(run.claimedOn ? { claimedOn: run.claimedOn } : {}), ...(run.endedOn ? { endedOn: run.endedOn } : {}) },
    spec: {
      runNumber: run.runNumber,
      behavior: run.behavior,
      ...(claimed ? { runToken: claimed.runToken } : {}),
      trigger,
      buildingBlock: { uuid: buildingBlock.uuid, spec: { ...buildingBlock.spec, inputs: claimed ? claimed.inputs : hideSecrets(buildingBlock.spec.inputs) } },
      buildingBlockDefinition: {
        uuid: buildingBlockDefinition.uuid,
        spec: { ...buildingBlockDefinition.spec, implementation: claimed ? claimed.implementation : hideSecrets(buildingBlockDefinition.spec.implementation) },
      },
    },
    // Every claim answers IN_PROGRESS (the Kotlin runners know no other value there); reads the real one.
    status: claimed ? 'IN_PROGRESS' : run.status,
    _links: {
      self: { href: self },
      registerSource: { href: `${self}/status/source` },
      updateSource: { href: `${self}/status/source/{sourceId}`, templated: true },
      meshstackBaseUrl: { href: baseUrl },
    },
  };
}
