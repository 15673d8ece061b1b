import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Tenant } from '../model.js';
import { TENANT_CODECS } from './index.js';
import { LINKLESS } from '../../codec.js';

/** A reader who may list no related collection: the related links are relations.ts's to test. */
const view = { baseUrl: 'https://blockyard.test', ...LINKLESS };
const tenant = (spec: Record<string, unknown>, appliedQuotas?: Record<string, { value: number }>): Tenant => ({
  uuid: '6f1c4a8e-0d9b-4c6e-9a43-1e2f3a4b5c6d',
  workspace: 'ws',
  project: 'app',
  platform: { uuid: '0b7e2f1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', name: 'k8s', location: 'eu', platformType: 'KUBERNETES' },
  platformTenantId: 'ns-1',
  createdOn: '2026-05-01T00:00:00Z',
  document: { metadata: {}, spec, ...(appliedQuotas ? { status: { appliedQuotas } } : {}) },
});
const body = (spec: Record<string, unknown>) => ({
  kind: 'meshTenant',
  metadata: { ownedByWorkspace: 'ws', ownedByProject: 'app' },
  spec: { platformRef: { kind: 'meshPlatform', uuid: '0b7e2f1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b' }, ...spec },
});
type Answer = { spec: Record<string, unknown>; status: Record<string, unknown> };

describe('meshTenant v4 quota forms', () => {
  const applied = { 'limits.cpu': { value: 1500 }, 'limits.memory': { value: 8 } };

  it("answers the applied quotas as spec.quotas under the spec's vendor, as status.appliedQuotas under meshcloud", () => {
    const made = tenant({ requestedQuotas: { 'limits.cpu': { value: 1500 } } }, applied);
    const spec = TENANT_CODECS.of('v4', 'vendor').encode(made, view) as unknown as Answer;
    assert.deepEqual(spec.spec.quotas, [
      { key: 'limits.cpu', value: 1500 },
      { key: 'limits.memory', value: 8 },
    ]);
    assert.equal(spec.status.appliedQuotas, undefined);
    const meshcloud = TENANT_CODECS.of('v4', 'meshcloud').encode(made, view) as unknown as Answer;
    assert.deepEqual(meshcloud.status.appliedQuotas, applied);
    assert.deepEqual(meshcloud.spec.requestedQuotas, { 'limits.cpu': { value: 1500 } }, 'the request is echoed as sent');
    assert.equal(meshcloud.spec.quotas, undefined);
    const common = (answer: Answer) => ({
      ...answer,
      spec: { ...answer.spec, quotas: undefined },
      status: { ...answer.status, appliedQuotas: undefined },
    });
    assert.deepEqual(common(meshcloud), common(spec), 'nothing else differs');
  });

  it('answers a tenant written before applied quotas were kept with its requested ones, v4-preview and v3 in the list form', () => {
    const old = tenant({ quotas: [{ key: 'limits.cpu', value: 2 }] });
    assert.deepEqual((TENANT_CODECS.of('v4', 'meshcloud').encode(old, view) as unknown as Answer).status.appliedQuotas, {
      'limits.cpu': { value: 2 },
    });
    for (const version of ['v4-preview', 'v3']) {
      assert.deepEqual(
        (TENANT_CODECS.of(version, 'meshcloud').encode(tenant({}, applied), view) as unknown as Answer).spec.quotas,
        [
          { key: 'limits.cpu', value: 1500 },
          { key: 'limits.memory', value: 8 },
        ],
        version,
      );
    }
  });

  it('takes both request forms whatever the vendor: the spec list and the map', () => {
    assert.deepEqual(TENANT_CODECS.of('v4').decode(body({ quotas: [{ key: 'limits.cpu', value: 4 }] })).document.spec.quotas, [
      { key: 'limits.cpu', value: 4 },
    ]);
    assert.deepEqual(
      TENANT_CODECS.of('v4').decode(body({ requestedQuotas: { 'limits.cpu': { value: 4 } } })).document.spec.requestedQuotas,
      { 'limits.cpu': { value: 4 } },
    );
    assert.throws(
      () => TENANT_CODECS.of('v4').decode(body({ requestedQuotas: [{ key: 'limits.cpu', value: 4 }] })),
      /spec\.requestedQuotas/,
    );
  });
});
