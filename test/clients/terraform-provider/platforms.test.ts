import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import type { SecretValue } from './provider-client.js';
import { describeProvider } from './provider-client.js';
import { configExample, PLATFORM_CONFIG_TYPES, PROPERTIES_EXAMPLES, type PlatformConfigType } from './structure-platform-configs.js';
import { catalogueClients, LandingZone, Platform, structureClients, type LandingZoneValue, type PlatformValue } from './structure-structs.js';
import { planned, resourceFlow } from './terraform.js';

type Json = Record<string, unknown>;

/** The set-typed attributes (types.Set in the client structs), below spec.config.<type>. */
const CONFIG_SETS = [
  'replication.awsSso.awsRoleMappings',
  'replication.awsIdentityStore.awsRoleMappings',
  'replication.azureRoleMappings',
  'replication.provisioning.subscriptionOwnerObjectIds',
  'replication.gcpRoleMappings',
  'replication.openshiftRoleMappings',
  'replication.tenantTags.tagMappers',
];

const at = (root: unknown, path: string): unknown => path.split('.').reduce<unknown>((node, key) => (node as Json | null)?.[key], root);
function put(root: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<Json>((node, key) => node[key] as Json, root);
  parent[keys.at(-1)!] = value;
}

/**
 * meshstack_platform with each config type and meshstack_landingzone with each platform_properties
 * type on it. A secret is sent as `{plaintext}` and must be answered as `{hash}` only (the resource
 * keeps the planned plaintext and takes the computed hash, so the secrets' own attributes are left
 * out of Terraform's comparison and checked here instead); an update sends the hash back, which must
 * keep the secret, and a rotation (a new secret_version) sends the plaintext again. The landing zone
 * sends every other type as null, as the client struct has no omitempty there.
 */
describeProvider('meshstack_platform and meshstack_landingzone, every config type', (ctx) => {
  let workspace: string;
  let location: string;
  let platformType: string;
  before(async () => {
    workspace = unique('tfp-plw');
    await createWorkspace(ctx.server.client, workspace);
    const { locations, platformTypes } = structureClients(ctx.provider);
    location = unique('tfp-ploc');
    await locations.post({ metadata: { name: location, ownedByWorkspace: workspace }, spec: { displayName: 'Platform location', description: '' } });
    const admin = (await ctx.provider.meshInfo()).adminWorkspaceIdentifier;
    platformType = `CFG-${unique('TYPE').toUpperCase()}`;
    await platformTypes.post({ metadata: { name: platformType, ownedByWorkspace: admin }, spec: { displayName: 'Config type', category: 'CUSTOM', icon: 'data:image/png;base64,iVBORw0KGgo=' } });
  });

  for (const type of PLATFORM_CONFIG_TYPES) {
    it(`${type}: the platform's flow (secrets answered as hashes, kept by their hash), its landing zone's flow, both listed`, async () => {
      const { platforms, landingZones } = catalogueClients(ctx.provider);
      const name = unique(`tfp-${type}`);
      const token = `${type}-${unique('secret')}-token`;
      const example = configExample(type, platformType, token);
      const body = (displayName: string, config: Json, uuid?: string) => ({
        metadata: { name, ownedByWorkspace: workspace, ...(uuid ? { uuid } : {}) },
        spec: {
          displayName,
          description: `A ${type} platform`,
          endpoint: `https://${type}.example.com`,
          locationRef: { name: location, kind: 'meshLocation' },
          contributingWorkspaces: [workspace],
          availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
          config: { type, [type]: config },
          quotaDefinitions: [],
        },
      });
      const secretPaths = example.secrets.map((path) => `spec.config.${type}.${path}`);
      let hashes: string[] = [];
      const expectHashes = (answer: PlatformValue, when: string) => {
        const answered = secretPaths.map((path) => at(answer, path) as SecretValue | null);
        for (const [i, secret] of answered.entries()) {
          assert.ok(secret?.hash, `${when}: ${secretPaths[i]} has no hash: ${JSON.stringify(secret)}`);
          assert.equal(secret.plaintext, null, `${when}: ${secretPaths[i]} answered in plain text`);
        }
        return answered.map((secret) => secret!.hash!);
      };
      const kept = () => {
        const config = structuredClone(example.config);
        example.secrets.forEach((path, i) => put(config, path, { hash: hashes[i] }));
        return config;
      };
      const platform = await resourceFlow<PlatformValue>({
        resource: `meshstack_platform (${type})`,
        rules: { ignore: ['metadata.uuid', ...secretPaths], sets: ['spec.contributingWorkspaces', 'spec.quotaDefinitions', ...CONFIG_SETS.map((path) => `spec.config.${type}.${path}`)] },
        create: async () => {
          const sent = body(`${type} platform`, example.config);
          const state = await platforms.post(sent);
          hashes = expectHashes(state, 'create');
          return { sent: planned(Platform, sent), state };
        },
        read: async (state) => {
          const read = await platforms.get(state.metadata.uuid!);
          if (read) assert.deepEqual(expectHashes(read, 'read'), hashes, 'a read answers the same hashes');
          return read;
        },
        update: async (state) => {
          const sent = body(`${type} platform, renamed`, kept(), state.metadata.uuid!);
          const answer = await platforms.put(state.metadata.uuid!, sent);
          assert.deepEqual(expectHashes(answer, 'update'), hashes, 'a secret sent back as its hash is kept');
          return { sent: planned(Platform, sent), state: answer };
        },
        destroy: async () => undefined, // the landing zone below needs it; destroyed at the end
        gone: () => true,
      });
      const uuid = platform.metadata.uuid!;
      if (secretPaths.length > 0) {
        // A changed secret_version sends the plaintext again (a rotation): that secret's hash changes, the others' stay.
        const rotated = kept();
        put(rotated, example.secrets[0]!, { plaintext: `${token}-rotated` });
        const answer = await platforms.put(uuid, body(`${type} platform, renamed`, rotated, uuid));
        const after = expectHashes(answer, 'rotation');
        assert.notEqual(after[0], hashes[0], 'a rotated secret answers a new hash');
        assert.deepEqual(after.slice(1), hashes.slice(1), 'the secrets sent as their hash are kept');
      }
      assert.ok((await platforms.list({ ownedByWorkspace: workspace })).some((p) => p.metadata.uuid === uuid), 'data meshstack_platforms lists it');

      const zone = unique(`tfp-lz-${type}`);
      const nulls = Object.fromEntries(PLATFORM_CONFIG_TYPES.map((other: PlatformConfigType) => [other, null]));
      const zoneBody = (displayName: string) => ({
        metadata: { name: zone, ownedByWorkspace: workspace, tags: { env: ['dev'] } },
        spec: {
          displayName,
          description: `A ${type} landing zone`,
          automateDeletionApproval: false,
          automateDeletionReplication: false,
          restricted: false,
          platformRef: { uuid, kind: 'meshPlatform' },
          platformProperties: { ...nulls, type, [type]: PROPERTIES_EXAMPLES[type] },
          quotas: [],
          mandatoryBuildingBlockRefs: [],
          recommendedBuildingBlockRefs: [],
        },
      });
      await resourceFlow<LandingZoneValue>({
        resource: `meshstack_landingzone (${type})`,
        rules: { ignore: ['status'] },
        create: async () => ({ sent: planned(LandingZone, zoneBody(`${type} zone`)), state: await landingZones.post(zoneBody(`${type} zone`)) }),
        read: () => landingZones.get(zone),
        update: async () => ({ sent: planned(LandingZone, zoneBody(`${type} zone, renamed`)), state: await landingZones.put(zone, zoneBody(`${type} zone, renamed`)) }),
        destroy: () => landingZones.delete(zone),
        // A landing zone is disabled, not removed: it stays readable.
        gone: (read) => read === null || read.status.disabled,
      });
      assert.ok((await landingZones.list({ platformUuid: uuid })).some((z) => z.metadata.name === zone), 'data meshstack_landingzones lists it');

      await platforms.delete(uuid);
      assert.equal(await platforms.get(uuid), null, 'the platform is gone after destroy');
    });
  }
});
