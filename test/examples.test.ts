import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { media } from './support/client.js';
import { describeEachDatabase } from './support/server.js';

const IMPORT = { 'content-type': 'application/vnd.vendor.api.meshobjects.v1+yaml', accept: 'application/vnd.vendor.api.meshobjects.v1+json' };
const DEFINITION = media('meshbuildingblockdefinition', 'v1-preview');

/** The README's "import the examples" steps, exactly: import.yaml, then definitions.yaml (twice: idempotent). */
describeEachDatabase('shipped examples', (ctx) => {
  it('imports examples/import.yaml and examples/definitions.yaml, again without changes, ending with released definitions of every implementation type', async () => {
    for (const file of ['examples/import.yaml', 'examples/definitions.yaml', 'examples/definitions.yaml']) {
      const response = await ctx.client.put('/api/meshobjects', await readFile(file, 'utf8'), { headers: IMPORT });
      assert.equal(response.status, 200, response.text);
      for (const entry of response.json) assert.equal(entry.status, 'SUCCESS', `${file}: ${JSON.stringify(entry)}`);
    }
    const list = await ctx.client.get('/api/meshobjects/meshbuildingblockdefinitions?workspaceIdentifier=platform-team', { headers: { accept: DEFINITION } });
    assert.equal(list.status, 200);
    const definitions = list.json._embedded.meshBuildingBlockDefinitions as { status: { latestReleasedVersion: number; versions: unknown[] }; spec: { displayName: string } }[];
    assert.equal(definitions.length, 5);
    for (const definition of definitions) {
      assert.equal(definition.status.latestReleasedVersion, 1, definition.spec.displayName);
      assert.equal(definition.status.versions.length, 1, definition.spec.displayName);
    }
    const versions = await ctx.client.get('/api/meshobjects/meshbuildingblockdefinitionversions?size=350', { headers: { accept: media('meshbuildingblockdefinitionversion', 'v1-preview') } });
    const types = new Set((versions.json._embedded.meshBuildingBlockDefinitionVersions as { spec: { implementation: { type: string } } }[]).map((v) => v.spec.implementation.type));
    assert.deepEqual([...types].sort(), ['azureDevOpsPipeline', 'githubWorkflows', 'gitlabPipeline', 'manual', 'terraform']);
    assert.doesNotMatch(versions.text, /replace-with-the-real/);
  });
});
