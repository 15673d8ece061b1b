import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedRanges, essence, formatMediaType, parseVersionedMediaType } from './media-types.js';

const VENDORS = ['vendor', 'meshcloud'] as const;

describe('essence', () => {
  it('drops parameters, trims and lower-cases', () => {
    assert.equal(essence(' Application/JSON ; charset=UTF-8'), 'application/json');
    assert.equal(essence('text/plain'), 'text/plain');
  });
  it('is "" for a missing header', () => {
    assert.equal(essence(undefined), '');
    assert.equal(essence(''), '');
  });
});

describe('parseVersionedMediaType', () => {
  it('parses a resource type', () => {
    assert.deepEqual(parseVersionedMediaType('application/vnd.vendor.api.meshbuildingblock.v1.hal+json', VENDORS), {
      vendor: 'vendor',
      kind: 'meshbuildingblock',
      version: 'v1',
      format: 'hal+json',
    });
  });
  it('parses preview versions', () => {
    assert.deepEqual(parseVersionedMediaType('application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json', VENDORS), {
      vendor: 'vendor',
      kind: 'meshbuildingblock',
      version: 'v2-preview',
      format: 'hal+json',
    });
  });
  it('matches case-insensitively and lower-cases camelCase kinds', () => {
    const expected = { vendor: 'meshcloud', kind: 'meshbuildingblockdefinition', version: 'v1-preview', format: 'hal+json' };
    assert.deepEqual(
      parseVersionedMediaType('application/vnd.meshcloud.api.meshBuildingBlockDefinition.v1-preview.hal+json', VENDORS),
      expected,
    );
    assert.deepEqual(
      parseVersionedMediaType('APPLICATION/VND.MESHCLOUD.API.MESHBUILDINGBLOCKDEFINITION.V1-PREVIEW.HAL+JSON', VENDORS),
      expected,
    );
  });
  it('parses the top-level index type, which has no kind', () => {
    assert.deepEqual(parseVersionedMediaType('application/vnd.vendor.api.v1.hal+json', VENDORS), {
      vendor: 'vendor',
      kind: '',
      version: 'v1',
      format: 'hal+json',
    });
  });
  it('parses the +json and +yaml formats of the declarative import', () => {
    assert.deepEqual(parseVersionedMediaType('application/vnd.meshcloud.api.meshTenant.v4+json', VENDORS), {
      vendor: 'meshcloud',
      kind: 'meshtenant',
      version: 'v4',
      format: 'json',
    });
    assert.deepEqual(parseVersionedMediaType('application/vnd.meshcloud.api.meshTenant.v4+yaml', VENDORS), {
      vendor: 'meshcloud',
      kind: 'meshtenant',
      version: 'v4',
      format: 'yaml',
    });
  });
  it('ignores parameters such as charset and q', () => {
    const expected = { vendor: 'vendor', kind: 'meshbuildingblock', version: 'v1', format: 'hal+json' };
    assert.deepEqual(parseVersionedMediaType('application/vnd.vendor.api.meshBuildingBlock.v1.hal+json;charset=UTF-8', VENDORS), expected);
    assert.deepEqual(
      parseVersionedMediaType('application/vnd.vendor.api.meshBuildingBlock.v1.hal+json ; charset="utf-8"; q=0.5', VENDORS),
      expected,
    );
    assert.deepEqual(parseVersionedMediaType('  application/vnd.vendor.api.meshbuildingblock.v1.hal+json  ', VENDORS), expected);
  });
  it('is undefined for a vendor that is not configured', () => {
    assert.equal(parseVersionedMediaType('application/vnd.acme.api.meshbuildingblock.v1.hal+json', VENDORS), undefined);
    assert.equal(parseVersionedMediaType('application/vnd.meshcloud.api.meshbuildingblock.v1.hal+json', ['vendor']), undefined);
    assert.equal(parseVersionedMediaType('application/vnd.vendor.api.meshbuildingblock.v1.hal+json', []), undefined);
  });
  it('is undefined for unversioned and malformed types', () => {
    for (const value of [
      'application/json',
      'application/hal+json',
      '*/*',
      'application/*',
      '',
      'application/x-www-form-urlencoded',
      'application/vnd.vendor.api.meshbuildingblock.hal+json',
      'application/vnd.vendor.api.meshbuildingblock.1.hal+json',
      'application/vnd.vendor.api.meshbuildingblock.v1-beta.hal+json',
      'application/vnd.vendor.api.meshbuildingblock.v1.json',
      'application/vnd.vendor.api.meshbuildingblock.v1+xml',
      'application/vnd.vendor.api.meshbuildingblock.v1.hal+json.extra',
      'application/vnd.vendor.meshbuildingblock.v1.hal+json',
      'text/vnd.vendor.api.meshbuildingblock.v1.hal+json',
      'application/vnd.vendor.api.mesh-building-block.v1.hal+json',
    ]) {
      assert.equal(parseVersionedMediaType(value, VENDORS), undefined, value);
    }
  });
});

describe('formatMediaType', () => {
  it('formats a resource type as HAL+JSON by default', () => {
    assert.equal(
      formatMediaType('vendor', 'meshbuildingblock', 'v2-preview'),
      'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json',
    );
  });
  it('formats the top-level index without a kind', () => {
    assert.equal(formatMediaType('meshcloud', '', 'v1'), 'application/vnd.meshcloud.api.v1.hal+json');
  });
  it('formats the +json and +yaml import formats', () => {
    assert.equal(formatMediaType('meshcloud', 'meshtenant', 'v4', 'json'), 'application/vnd.meshcloud.api.meshtenant.v4+json');
    assert.equal(formatMediaType('meshcloud', 'meshtenant', 'v4', 'yaml'), 'application/vnd.meshcloud.api.meshtenant.v4+yaml');
    assert.equal(formatMediaType('vendor', '', 'v1', 'json'), 'application/vnd.vendor.api.v1+json');
  });
  it('round-trips through parseVersionedMediaType', () => {
    for (const [kind, version, format] of [
      ['meshbuildingblock', 'v1', 'hal+json'],
      ['meshbuildingblockrun', 'v1', 'hal+json'],
      ['', 'v1', 'hal+json'],
      ['meshobjects', 'v2', 'hal+json'],
      ['meshtenant', 'v4', 'json'],
      ['meshworkspace', 'v2', 'yaml'],
    ] as const) {
      for (const vendor of VENDORS) {
        assert.deepEqual(parseVersionedMediaType(formatMediaType(vendor, kind, version, format), VENDORS), {
          vendor,
          kind,
          version,
          format,
        });
      }
    }
  });
});

describe('acceptedRanges', () => {
  it('splits and trims a list, keeping the order for equal quality', () => {
    assert.deepEqual(acceptedRanges('a/b, c/d ,e/f'), ['a/b', 'c/d', 'e/f']);
  });
  it('orders by quality, highest first, stable for equal q', () => {
    assert.deepEqual(acceptedRanges('a/a;q=0.5, b/b, c/c;q=0.9, d/d;q=0.5, e/e;q=1'), [
      'b/b',
      'e/e;q=1',
      'c/c;q=0.9',
      'a/a;q=0.5',
      'd/d;q=0.5',
    ]);
  });
  it('reads q among other parameters and in any case, with spaces', () => {
    assert.deepEqual(acceptedRanges('a/a;charset=utf-8; q=0.1, b/b ; Q=0.2'), ['b/b ; Q=0.2', 'a/a;charset=utf-8; q=0.1']);
  });
  it('drops ranges with q=0', () => {
    assert.deepEqual(acceptedRanges('a/a;q=0, b/b;q=0.0, c/c;q=0.001, d/d;q=0.000'), ['c/c;q=0.001']);
    assert.deepEqual(acceptedRanges('a/a;q=0'), []);
  });
  it('skips empty elements and is empty for an empty header', () => {
    assert.deepEqual(acceptedRanges(''), []);
    assert.deepEqual(acceptedRanges(' , ,a/a,,'), ['a/a']);
  });
  it('keeps parameters so the ranges can be parsed as versioned types', () => {
    const [first] = acceptedRanges('application/json;q=0.1, application/vnd.vendor.api.meshBuildingBlock.v1.hal+json;charset=UTF-8');
    assert.equal(first, 'application/vnd.vendor.api.meshBuildingBlock.v1.hal+json;charset=UTF-8');
    assert.equal(parseVersionedMediaType(first!, VENDORS)?.kind, 'meshbuildingblock');
  });
});
