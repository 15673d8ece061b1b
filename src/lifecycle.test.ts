import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMPORT_VERSIONS, REST_VERSIONS } from './lifecycle.js';
import { formatMediaType } from './lib/media-types.js';
import type { VersionRef } from './lib/media-types.js';
import {
  UNDATED_DEPRECATION_SINCE,
  deprecatedMessage,
  deprecationHeaders,
  isRetired,
  retiredMessage,
  type LifecycleEntry,
} from './lib/versions.js';

const LIFECYCLE = REST_VERSIONS.entries;
const IMPORT_LIFECYCLE = IMPORT_VERSIONS.entries;
const lifecycleOf = (ref: VersionRef) => REST_VERSIONS.of(ref);
const importLifecycleOf = (ref: VersionRef) => IMPORT_VERSIONS.of(ref);
const lifecycleKinds = () => REST_VERSIONS.kinds();
const retiredKinds = (now?: Date) => REST_VERSIONS.retiredKinds(now);

const entry = (kind: string, version: string): LifecycleEntry => {
  const found = lifecycleOf({ kind, version });
  assert.ok(found, `${kind}.${version} should be in the lifecycle table`);
  return found;
};
const vendorType = (ref: VersionRef) => formatMediaType('vendor', ref.kind, ref.version);

describe('LIFECYCLE and IMPORT_LIFECYCLE', () => {
  it('have lower-case kinds, unique keys and ISO dates', () => {
    for (const table of [LIFECYCLE, IMPORT_LIFECYCLE]) {
      const keys = new Set<string>();
      for (const e of table) {
        assert.equal(e.kind, e.kind.toLowerCase());
        assert.match(e.version, /^v\d+(-preview)?$/);
        if (e.endOfLife !== undefined) assert.match(e.endOfLife, /^\d{4}-\d{2}-\d{2}$/);
        if (e.successor) assert.equal(e.successor.kind, e.successor.kind.toLowerCase());
        keys.add(`${e.kind}.${e.version}`);
      }
      assert.equal(keys.size, table.length);
    }
  });
  it('keep the spec’s two lists apart where their dates differ (meshUser v1: REST 2025-03-01, import 2025-07-01)', () => {
    assert.equal(lifecycleOf({ kind: 'meshuser', version: 'v1' })?.endOfLife, '2025-03-01');
    assert.equal(importLifecycleOf({ kind: 'meshUser', version: 'v1' })?.endOfLife, '2025-07-01');
    assert.equal(importLifecycleOf({ kind: 'meshWorkspace', version: 'v1' })?.endOfLife, undefined);
    assert.equal(importLifecycleOf({ kind: 'meshTenant', version: 'v3' })?.replacedBy, 'meshTenant.v4');
    assert.equal(importLifecycleOf({ kind: 'meshTenant', version: 'v4' }), undefined);
    assert.equal(importLifecycleOf({ kind: 'meshBuildingBlock', version: 'v1' }), undefined, 'not in the import list');
  });
});

describe('lifecycleKinds', () => {
  it('lists every kind of the REST list once', () => {
    const kinds = lifecycleKinds();
    assert.equal(new Set(kinds).size, kinds.length);
    for (const kind of ['meshuser', 'meshcustomer', 'meshtenant', 'meshlandingzone', 'meshchargeback'])
      assert.ok(kinds.includes(kind), kind);
  });
});

describe('deprecatedMessage', () => {
  it('says the version is deprecated, until when, and what to use instead', () => {
    assert.equal(
      deprecatedMessage(entry('meshtenant', 'v3')),
      'version v3 of meshtenant is deprecated (no end-of-life date announced); use meshTenant.v4 instead',
    );
    assert.equal(
      deprecatedMessage({ kind: 'x', version: 'v1', endOfLife: '2099-01-31', replacedBy: 'x.v2' }),
      'version v1 of x is deprecated, works through 2099-01-31; use x.v2 instead',
    );
  });
});

describe('lifecycleOf', () => {
  it('finds entries by kind and version', () => {
    assert.equal(entry('meshtenant', 'v3').replacedBy, 'meshTenant.v4');
    assert.equal(entry('meshbuildingblock', 'v1').endOfLife, undefined);
  });
  it('is undefined for current versions', () => {
    assert.equal(lifecycleOf({ kind: 'meshbuildingblock', version: 'v2-preview' }), undefined);
    assert.equal(lifecycleOf({ kind: 'meshtenant', version: 'v4' }), undefined);
    assert.equal(lifecycleOf({ kind: '', version: 'v1' }), undefined);
  });
});

describe('isRetired', () => {
  const tenantV1 = entry('meshtenant', 'v1'); // end of life 2025-07-01

  it('is false before the end-of-life date', () => {
    assert.equal(isRetired(tenantV1, new Date('2025-01-01T00:00:00Z')), false);
    assert.equal(isRetired(tenantV1, new Date('2025-06-30T23:59:59.999Z')), false);
  });
  it('keeps the version working through its end-of-life date', () => {
    assert.equal(isRetired(tenantV1, new Date('2025-07-01T00:00:00Z')), false);
    assert.equal(isRetired(tenantV1, new Date('2025-07-01T23:59:59.999Z')), false);
  });
  it('is true from the midnight UTC after the end-of-life date on', () => {
    assert.equal(isRetired(tenantV1, new Date('2025-07-02T00:00:00Z')), true);
    assert.equal(isRetired(tenantV1, new Date('2030-01-01T00:00:00Z')), true);
  });
  it('is never true without an end-of-life date', () => {
    const blockV1 = entry('meshbuildingblock', 'v1');
    assert.equal(isRetired(blockV1, new Date('2000-01-01T00:00:00Z')), false);
    assert.equal(isRetired(blockV1, new Date('2100-01-01T00:00:00Z')), false);
  });
  it('uses the real clock by default', () => {
    assert.equal(isRetired({ kind: 'x', version: 'v1', endOfLife: '2000-01-01', replacedBy: 'x.v2' }), true);
    assert.equal(isRetired({ kind: 'x', version: 'v1', endOfLife: '9999-01-01', replacedBy: 'x.v2' }), false);
  });
});

describe('retiredMessage', () => {
  it('says the version is retired, when, and what to use instead', () => {
    assert.equal(
      retiredMessage(entry('meshtenant', 'v1')),
      'version v1 of meshtenant was retired on 2025-07-01; use meshTenant.v3 instead',
    );
  });
});

describe('retiredKinds', () => {
  it('is exactly meshcustomer, meshcustomerusergroup and meshchargeback once every date has passed', () => {
    assert.deepEqual(retiredKinds().sort(), ['meshchargeback', 'meshcustomer', 'meshcustomerusergroup']);
    assert.deepEqual(retiredKinds(new Date('2026-01-01T00:00:00Z')).sort(), ['meshchargeback', 'meshcustomer', 'meshcustomerusergroup']);
  });
  it('grows as end-of-life dates pass', () => {
    assert.deepEqual(retiredKinds(new Date('2025-03-01T23:59:59Z')), []);
    assert.deepEqual(retiredKinds(new Date('2025-03-02T00:00:00Z')).sort(), ['meshcustomer', 'meshcustomerusergroup']);
    assert.deepEqual(retiredKinds(new Date('2025-10-01T12:00:00Z')).sort(), ['meshcustomer', 'meshcustomerusergroup']);
    assert.deepEqual(retiredKinds(new Date('2025-10-02T00:00:00Z')).sort(), ['meshchargeback', 'meshcustomer', 'meshcustomerusergroup']);
  });
  it('keeps kinds whose replacement is a newer version of the same kind', () => {
    const kinds = retiredKinds(new Date('2030-01-01T00:00:00Z'));
    for (const kind of [
      'meshuser',
      'meshserviceinstance',
      'meshpaymentmethod',
      'meshproject',
      'meshtenant',
      'meshworkspace',
      'meshbuildingblock',
    ]) {
      assert.ok(!kinds.includes(kind), kind);
    }
  });
});

describe('deprecationHeaders', () => {
  const url = 'https://blocks.example.com/api/meshobjects/meshbuildingblocks';
  const since = `@${Date.parse(`${UNDATED_DEPRECATION_SINCE}T00:00:00Z`) / 1000}`;

  it('gives Deprecation as @<unix seconds>', () => {
    const headers = deprecationHeaders(entry('meshbuildingblock', 'v1'), url, vendorType);
    assert.match(headers.deprecation!, /^@\d+$/);
    assert.equal(headers.deprecation, since);
    assert.equal(headers.deprecation, '@1735689600');
  });
  it('gives no Sunset without an end-of-life date', () => {
    const headers = deprecationHeaders(entry('meshbuildingblock', 'v1'), url, vendorType);
    assert.ok(!('sunset' in headers));
  });
  it('gives Sunset as an HTTP date when an end-of-life date exists', () => {
    const headers = deprecationHeaders(entry('meshtenant', 'v2'), 'https://h/api/meshobjects/meshtenants', vendorType);
    assert.equal(headers.sunset, 'Wed, 02 Jul 2025 00:00:00 GMT');
    assert.match(headers.sunset!, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  });
  it('links the successor version of the same resource', () => {
    const headers = deprecationHeaders(entry('meshbuildingblock', 'v1'), url, vendorType);
    assert.equal(
      headers.link,
      `<${url}>; rel="successor-version"; type="application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json"`,
    );
  });
  it('formats the successor type with the given function (the client vendor)', () => {
    const headers = deprecationHeaders(entry('meshtenant', 'v3'), 'https://h/api/meshobjects/meshtenants', (ref) =>
      formatMediaType('meshcloud', ref.kind, ref.version),
    );
    assert.equal(
      headers.link,
      '<https://h/api/meshobjects/meshtenants>; rel="successor-version"; type="application/vnd.meshcloud.api.meshtenant.v4.hal+json"',
    );
  });
  it('gives no Link without a successor', () => {
    // Every deprecated version served here names its successor; an entry without one:
    const headers = deprecationHeaders(
      { kind: 'meshexample', version: 'v1', replacedBy: 'meshExample.v2' },
      'https://h/api/meshobjects/meshexamples',
      vendorType,
    );
    assert.deepEqual(headers, { deprecation: since });
  });
  it('gives all three headers for a dated entry with a successor', () => {
    assert.deepEqual(Object.keys(deprecationHeaders(entry('meshproject', 'v1'), 'https://h/p', vendorType)).sort(), [
      'deprecation',
      'link',
      'sunset',
    ]);
  });
});
