import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFIG_SECRET_MASK, configFromV1Form, configToV1Form } from './config.js';

describe('platform configs in v1 and v2 form', () => {
  it('converts workload identities both ways (AWS access, GCP service account, Azure principals)', () => {
    const v1 = {
      type: 'aws',
      aws: {
        region: 'eu-central-1',
        replication: { accessConfig: { organizationRootAccountRole: 'Org', workloadIdentityConfig: { roleArn: 'arn:role' } } },
      },
    };
    const v2 = configFromV1Form(v1);
    assert.deepEqual(v2, {
      type: 'aws',
      aws: {
        region: 'eu-central-1',
        replication: {
          accessConfig: {
            organizationRootAccountRole: 'Org',
            auth: { type: 'workloadIdentity', workloadIdentity: { roleArn: 'arn:role' } },
          },
        },
      },
    });
    assert.deepEqual(configToV1Form(v2), v1);

    const gcp = {
      type: 'gcp',
      gcp: {
        replication: {
          serviceAccountConfig: { serviceAccountWorkloadIdentityConfig: { audience: 'aud', serviceAccountEmail: 'sa@example.com' } },
        },
      },
    };
    assert.deepEqual(configFromV1Form(gcp), {
      type: 'gcp',
      gcp: {
        replication: {
          serviceAccount: { type: 'workloadIdentity', workloadIdentity: { audience: 'aud', serviceAccountEmail: 'sa@example.com' } },
        },
      },
    });
    assert.deepEqual(configToV1Form(configFromV1Form(gcp)), gcp);

    const azurerg = { type: 'azurerg', azurerg: { replication: { servicePrincipal: { clientId: 'c', authType: 'WORKLOAD_IDENTITY' } } } };
    assert.deepEqual(configFromV1Form(azurerg), {
      type: 'azurerg',
      azurerg: { replication: { servicePrincipal: { clientId: 'c', auth: { type: 'workloadIdentity' } } } },
    });
    assert.deepEqual(configToV1Form(configFromV1Form(azurerg)), azurerg);
  });

  it('leaves a v2 config and the caller’s objects as they are; masks every secret for v1, v2-only parts included', () => {
    const v2 = {
      type: 'kubernetes',
      kubernetes: {
        baseUrl: 'https://k8s',
        replication: { clientConfig: { accessToken: { hash: 'sha256:1' } } },
        metering: { clientConfig: { accessToken: { hash: 'sha256:2' } } },
      },
    };
    const before = structuredClone(v2);
    assert.deepEqual(configFromV1Form(v2), v2);
    const v1 = configToV1Form(v2);
    assert.deepEqual(v2, before, 'the stored config is not changed in place');
    assert.deepEqual(v1, {
      type: 'kubernetes',
      kubernetes: {
        baseUrl: 'https://k8s',
        replication: { clientConfig: { accessToken: CONFIG_SECRET_MASK } },
        metering: { clientConfig: { accessToken: CONFIG_SECRET_MASK } },
      },
    });
  });

  it('passes configs of other types through (custom, unsupported)', () => {
    const custom = { type: 'custom', custom: { platformTypeRef: { name: 'CUSTOM', kind: 'meshPlatformType' } } };
    assert.deepEqual(configFromV1Form(custom), custom);
    assert.deepEqual(configToV1Form(custom), custom);
    assert.deepEqual(configToV1Form({ type: 'unsupported' }), { type: 'unsupported' });
  });
});
