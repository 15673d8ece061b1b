import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { communicationDefinitionV1Preview } from '../../communicationdefinition/wire/v1-preview.js';
import { serviceInstanceV2 } from '../../serviceinstance/wire/v2.js';
import { communicationV1Preview } from './v1-preview.js';
import { LINKLESS } from '../../codec.js';

/** A reader who may list no related collection: the related links are relations.ts's to test. */
const view = { baseUrl: 'https://blockyard.example', ...LINKLESS };
const DEFINITION = '1660cb2f-4c0d-4f72-b8a6-d5fbf2cb9a2d';

/** Paths of `value` that `schema` does not describe (its objects list their properties; records take any key). */
function undescribed(schema: TSchema, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!properties) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    properties[key] ? undescribed(properties[key]!, item, `${path}/${key}`) : [`${path}/${key}`],
  );
}

/** The encoded object is valid against the codec's `schema` (the served OpenAPI reads it as the response schema), and the schema names every field. */
function assertMatches(schema: TSchema, encoded: unknown) {
  const errors = [...Value.Errors(schema, encoded)].map((error) => `${error.path}: ${error.message}`);
  assert.deepEqual([...errors, ...undescribed(schema, encoded).map((path) => `${path}: not in the schema`)], []);
}

describe('codecs: what encode answers is what `schema` says', () => {
  it('meshServiceInstance v2, live and deleting, with and without parameters', () => {
    const live = {
      instanceId: 'db-1',
      workspace: 'ws',
      project: 'web',
      marketplace: 'eu',
      serviceId: 's',
      planId: 'p',
      creator: 'Unknown',
      createdOn: '2026-01-01T00:00:00.000Z',
      document: { metadata: {}, spec: { displayName: 'DB' } },
    };
    assertMatches(serviceInstanceV2.schema, serviceInstanceV2.encode(live, view));
    const deleting = {
      ...live,
      markedForDeletionOn: '2026-01-02T00:00:00.000Z',
      goneOn: '2026-01-02T00:00:05.000Z',
      document: { metadata: {}, spec: { displayName: 'DB', parameters: { size: 2 } } },
    };
    const encoded = serviceInstanceV2.encode(deleting, view);
    assertMatches(serviceInstanceV2.schema, encoded);
    assert.equal(encoded.status.state, 'DELETING');
    assert.equal(Value.Check(serviceInstanceV2.schema, { ...encoded, status: { state: 'GONE' } }), false);
  });

  it('meshCommunicationDefinition v1-preview of both types (counts of open and resolved only for ACTION_REQUIRED)', () => {
    for (const type of ['ACTION_REQUIRED', 'NOTIFICATION'] as const) {
      const encoded = communicationDefinitionV1Preview.encode(
        {
          uuid: DEFINITION,
          communication: { title: 't', message: 'm', dueDate: '2099-01-01', type, skipEmailNotifications: false },
          counters: { total: 3, open: 1, resolved: 2 },
          createdOn: '2026-01-01T00:00:00.000Z',
        },
        view,
      );
      assertMatches(communicationDefinitionV1Preview.schema, encoded);
      assert.deepEqual(
        Object.keys(encoded.status).sort(),
        type === 'ACTION_REQUIRED' ? ['communicationsOpen', 'communicationsResolved', 'communicationsTotal'] : ['communicationsTotal'],
      );
    }
  });

  it('meshCommunication v1-preview: OPEN (with its resolve link), RESOLVED, and a NOTIFICATION without a status', () => {
    const base = {
      uuid: '9f700564-a877-4dcd-bd76-0117597143a8',
      workspace: 'ws',
      target: { kind: 'meshWorkspace' as const, name: 'ws' },
      createdOn: '2026-01-01T00:00:00.000Z',
    };
    const action = { uuid: DEFINITION, title: 't', dueDate: '2099-01-01', type: 'ACTION_REQUIRED' as const };
    const open = communicationV1Preview.encode({ ...base, definition: action, resolutionStatus: 'OPEN' }, view);
    assertMatches(communicationV1Preview.schema, open);
    assert.equal(open._links.resolve?.href, `${open._links.self.href}/resolve`);
    const resolved = communicationV1Preview.encode({ ...base, definition: action, resolutionStatus: 'RESOLVED' }, view);
    assertMatches(communicationV1Preview.schema, resolved);
    assert.equal(resolved._links.resolve, undefined);
    const note = communicationV1Preview.encode({ ...base, definition: { ...action, type: 'NOTIFICATION' } }, view);
    assertMatches(communicationV1Preview.schema, note);
    assert.equal('resolutionStatus' in note.status, false);
  });
});
