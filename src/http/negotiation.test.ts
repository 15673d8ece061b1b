import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../lib/errors.js';
import type { RouteMedia } from '../lib/media-types.js';
import { negotiate, negotiateRemembered, retiredVersionNamed } from './negotiation.js';
import { REST_VERSIONS } from '../lifecycle.js';

const lifecycleOf = (ref: { kind: string; version: string }) => REST_VERSIONS.of(ref);

const VENDORS = ['vendor', 'meshcloud'] as const;
/** A fixed clock after every end-of-life date in the spec (the latest is 2025-10-01). */
const NOW = new Date('2026-01-15T12:00:00Z');

const type = (kind: string, version: string, vendor = 'vendor') => `application/vnd.${vendor}.api.${kind}.${version}.hal+json`;

const BLOCK_V2: RouteMedia = { produces: [{ kind: 'meshbuildingblock', version: 'v2-preview' }] };
const BLOCK_BOTH: RouteMedia = {
  produces: [
    { kind: 'meshbuildingblock', version: 'v1' },
    { kind: 'meshbuildingblock', version: 'v2-preview' },
  ],
};
const CREATE_BLOCK: RouteMedia = {
  produces: [
    { kind: 'meshbuildingblock', version: 'v1' },
    { kind: 'meshbuildingblock', version: 'v2-preview' },
  ],
  consumes: [
    { kind: 'meshbuildingblock', version: 'v1' },
    { kind: 'meshbuildingblock', version: 'v2-preview' },
  ],
};
const TENANTS: RouteMedia = { produces: [{ kind: 'meshtenant', version: 'v4' }] };
const IMPORT_TENANTS: RouteMedia = {
  produces: [{ kind: 'meshtenant', version: 'v4' }],
  consumes: [
    { kind: 'meshtenant', version: 'v4', format: 'json' },
    { kind: 'meshtenant', version: 'v4', format: 'yaml' },
  ],
};
const LOGIN: RouteMedia = { plainBodies: ['application/x-www-form-urlencoded', 'application/json'] };

/** Asserts that `fn` throws an ApiError with `status` whose message matches every pattern. */
function fails(fn: () => unknown, status: number, ...patterns: RegExp[]): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.status, status, error.message);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

describe('negotiate: Accept (406)', () => {
  it('answers 406 without an Accept header, naming what the route serves', () => {
    fails(
      () => negotiate({}, BLOCK_V2, VENDORS, NOW),
      406,
      /Accept header is required/,
      /application\/vnd\.vendor\.api\.meshbuildingblock\.v2-preview\.hal\+json/,
    );
    fails(() => negotiate({ accept: '' }, BLOCK_V2, VENDORS, NOW), 406);
    fails(() => negotiate({ accept: '   ' }, BLOCK_V2, VENDORS, NOW), 406);
  });
  it('answers 406 with the NotAcceptable error code', () => {
    assert.throws(
      () => negotiate({}, BLOCK_V2, VENDORS, NOW),
      (e: unknown) => e instanceof ApiError && e.errorCode === 'NotAcceptable',
    );
  });
  it('answers 406 for wildcards and unversioned types', () => {
    for (const accept of ['*/*', 'application/*', 'application/json', 'application/hal+json', '*/*;q=0.8, application/json']) {
      fails(() => negotiate({ accept }, BLOCK_V2, VENDORS, NOW), 406, /names no version served here/, /meshbuildingblock\.v2-preview/);
    }
  });
  it('answers 406 for a version the route does not serve', () => {
    fails(() => negotiate({ accept: type('meshbuildingblock', 'v3') }, BLOCK_V2, VENDORS, NOW), 406, /v2-preview/);
    fails(() => negotiate({ accept: type('meshbuildingblock', 'v1') }, BLOCK_V2, VENDORS, NOW), 406);
    fails(() => negotiate({ accept: type('meshbuildingblockdefinition', 'v2-preview') }, BLOCK_V2, VENDORS, NOW), 406);
  });
  it('answers 406 for an unknown vendor', () => {
    fails(() => negotiate({ accept: type('meshbuildingblock', 'v2-preview', 'acme') }, BLOCK_V2, VENDORS, NOW), 406);
  });
  it('answers 406 for a format the route does not produce', () => {
    fails(() => negotiate({ accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview+json' }, BLOCK_V2, VENDORS, NOW), 406);
  });
  it('answers 406 when the only acceptable range has q=0', () => {
    fails(() => negotiate({ accept: `${type('meshbuildingblock', 'v2-preview')};q=0` }, BLOCK_V2, VENDORS, NOW), 406);
  });
  it('answers 406 for a retired version, saying so and naming the replacement', () => {
    fails(() => negotiate({ accept: type('meshtenant', 'v1') }, TENANTS, VENDORS, NOW), 406, /retired/, /2025-07-01/, /meshTenant\.v3/);
  });
  it('answers 406 for a retired version even on a route that still lists it', () => {
    const legacy: RouteMedia = { produces: [{ kind: 'meshtenant', version: 'v2' }] };
    fails(() => negotiate({ accept: type('meshTenant', 'v2') }, legacy, VENDORS, NOW), 406, /retired/, /meshTenant\.v3/);
  });
  it('answers a retired version of another kind than the route speaks as retired too', () => {
    fails(
      () => negotiate({ accept: type('meshproject', 'v1') }, TENANTS, VENDORS, NOW),
      406,
      /version v1 of meshproject was retired on 2025-07-01/,
    );
  });
  it('prefers a served version over a retired one named with higher quality', () => {
    const negotiated = negotiate({ accept: `${type('meshtenant', 'v1')}, ${type('meshtenant', 'v4')};q=0.5` }, TENANTS, VENDORS, NOW);
    assert.deepEqual(negotiated.produces, { kind: 'meshtenant', version: 'v4' });
  });
  it('serves a version before its end-of-life date', () => {
    const legacy: RouteMedia = { produces: [{ kind: 'meshtenant', version: 'v2' }] };
    const negotiated = negotiate({ accept: type('meshtenant', 'v2') }, legacy, VENDORS, new Date('2025-06-30T23:59:59Z'));
    assert.deepEqual(negotiated.produces, { kind: 'meshtenant', version: 'v2' });
    assert.deepEqual(negotiated.deprecated, [lifecycleOf({ kind: 'meshtenant', version: 'v2' })]);
  });
});

describe('negotiate: choosing a representation', () => {
  it('picks the version the client names, case-insensitively and with parameters', () => {
    const negotiated = negotiate(
      { accept: 'application/vnd.vendor.api.meshBuildingBlock.v2-preview.hal+json;charset=UTF-8' },
      BLOCK_BOTH,
      VENDORS,
      NOW,
    );
    assert.deepEqual(negotiated, {
      vendor: 'vendor',
      produces: { kind: 'meshbuildingblock', version: 'v2-preview' },
      answerType: type('meshbuildingblock', 'v2-preview'),
      deprecated: [],
    });
  });
  it('follows the client quality order', () => {
    const accept = `${type('meshbuildingblock', 'v1')};q=0.4, application/json, ${type('meshbuildingblock', 'v2-preview')};q=0.9`;
    assert.deepEqual(negotiate({ accept }, BLOCK_BOTH, VENDORS, NOW).produces, { kind: 'meshbuildingblock', version: 'v2-preview' });
  });
  it('returns the vendor segment the client used', () => {
    assert.equal(negotiate({ accept: type('meshbuildingblock', 'v2-preview', 'meshcloud') }, BLOCK_V2, VENDORS, NOW).vendor, 'meshcloud');
    assert.equal(negotiate({ accept: type('meshbuildingblock', 'v2-preview', 'vendor') }, BLOCK_V2, VENDORS, NOW).vendor, 'vendor');
    assert.equal(negotiate({ accept: type('meshbuildingblock', 'v2-preview', 'Meshcloud') }, BLOCK_V2, VENDORS, NOW).vendor, 'meshcloud');
  });
  it('negotiates the top-level index type', () => {
    const index: RouteMedia = { produces: [{ kind: '', version: 'v1' }] };
    assert.deepEqual(negotiate({ accept: 'application/vnd.meshcloud.api.v1.hal+json' }, index, VENDORS, NOW), {
      vendor: 'meshcloud',
      produces: { kind: '', version: 'v1' },
      answerType: 'application/vnd.meshcloud.api.v1.hal+json',
      deprecated: [],
    });
  });
  it('negotiates a deprecated version and lists it in `deprecated`', () => {
    const negotiated = negotiate({ accept: type('meshBuildingBlock', 'v1') }, BLOCK_BOTH, VENDORS, NOW);
    assert.deepEqual(negotiated.produces, { kind: 'meshbuildingblock', version: 'v1' });
    assert.equal(negotiated.deprecated.length, 1);
    assert.equal(negotiated.deprecated[0], lifecycleOf({ kind: 'meshbuildingblock', version: 'v1' }));
    assert.equal(negotiated.deprecated[0]?.replacedBy, 'meshBuildingBlock.v2');
  });
  it('lists a deprecated version once when both body and answer use it', () => {
    const negotiated = negotiate(
      { accept: type('meshbuildingblock', 'v1'), 'content-type': type('meshbuildingblock', 'v1') },
      CREATE_BLOCK,
      VENDORS,
      NOW,
    );
    assert.deepEqual(negotiated.deprecated, [lifecycleOf({ kind: 'meshbuildingblock', version: 'v1' })]);
  });
  it('uses the first configured vendor when the route has no media', () => {
    assert.deepEqual(negotiate({}, {}, VENDORS, NOW), { vendor: 'vendor', deprecated: [] });
    assert.deepEqual(negotiate({ accept: '*/*', 'content-type': 'text/plain' }, {}, ['meshcloud'], NOW), {
      vendor: 'meshcloud',
      deprecated: [],
    });
  });
  it('uses the real clock by default', () => {
    assert.equal(negotiate({ accept: type('meshbuildingblock', 'v2-preview') }, BLOCK_V2, VENDORS).produces?.version, 'v2-preview');
  });
});

describe('negotiate: Content-Type (415)', () => {
  const accept = type('meshbuildingblock', 'v2-preview');

  it('negotiates a versioned body type with charset', () => {
    const negotiated = negotiate(
      { accept, 'content-type': `${type('meshBuildingBlock', 'v2-preview')}; charset=UTF-8` },
      CREATE_BLOCK,
      VENDORS,
      NOW,
    );
    assert.deepEqual(negotiated, {
      vendor: 'vendor',
      consumes: { kind: 'meshbuildingblock', version: 'v2-preview' },
      produces: { kind: 'meshbuildingblock', version: 'v2-preview' },
      answerType: type('meshbuildingblock', 'v2-preview'),
      deprecated: [],
    });
  });
  it('answers 415 for application/json on a route that consumes versioned bodies', () => {
    fails(
      () => negotiate({ accept, 'content-type': 'application/json' }, CREATE_BLOCK, VENDORS, NOW),
      415,
      /Content-Type "application\/json" is not supported here/,
      /application\/vnd\.vendor\.api\.meshbuildingblock\.v1\.hal\+json/,
    );
    fails(() => negotiate({ accept, 'content-type': 'application/json; charset=utf-8' }, CREATE_BLOCK, VENDORS, NOW), 415);
  });
  it('answers 415 with the UnsupportedMediaType error code', () => {
    assert.throws(
      () => negotiate({ accept, 'content-type': 'application/json' }, CREATE_BLOCK, VENDORS, NOW),
      (e: unknown) => e instanceof ApiError && e.errorCode === 'UnsupportedMediaType',
    );
  });
  it('answers 415 without a Content-Type', () => {
    fails(() => negotiate({ accept }, CREATE_BLOCK, VENDORS, NOW), 415, /no Content-Type/);
  });
  it('answers 415 for a body version or format the route does not consume', () => {
    fails(() => negotiate({ accept, 'content-type': type('meshbuildingblock', 'v3') }, CREATE_BLOCK, VENDORS, NOW), 415);
    fails(() => negotiate({ accept, 'content-type': type('meshbuildingblock', 'v2-preview', 'acme') }, CREATE_BLOCK, VENDORS, NOW), 415);
    fails(
      () =>
        negotiate({ accept, 'content-type': 'application/vnd.vendor.api.meshbuildingblock.v2-preview+json' }, CREATE_BLOCK, VENDORS, NOW),
      415,
    );
  });
  it('answers 415 for a retired body version, naming the replacement', () => {
    fails(
      () =>
        negotiate(
          { accept: type('meshtenant', 'v4'), 'content-type': 'application/vnd.meshcloud.api.meshTenant.v2+json' },
          IMPORT_TENANTS,
          VENDORS,
          NOW,
        ),
      415,
      /retired/,
      /meshTenant\.v3/,
    );
  });
  it('checks the Accept header before the Content-Type (spec §7 rule 1)', () => {
    fails(() => negotiate({ 'content-type': 'application/json' }, CREATE_BLOCK, VENDORS, NOW), 406);
  });
  it('negotiates the +json and +yaml import formats', () => {
    for (const format of ['json', 'yaml'] as const) {
      const negotiated = negotiate(
        { accept: type('meshtenant', 'v4', 'meshcloud'), 'content-type': `application/vnd.meshcloud.api.meshTenant.v4+${format}` },
        IMPORT_TENANTS,
        VENDORS,
        NOW,
      );
      assert.deepEqual(negotiated.consumes, { kind: 'meshtenant', version: 'v4', format });
      assert.equal(negotiated.vendor, 'meshcloud');
    }
  });
  it('lists a deprecated body version in `deprecated`', () => {
    const negotiated = negotiate({ accept, 'content-type': type('meshbuildingblock', 'v1') }, CREATE_BLOCK, VENDORS, NOW);
    assert.deepEqual(negotiated.consumes, { kind: 'meshbuildingblock', version: 'v1' });
    assert.deepEqual(negotiated.produces, { kind: 'meshbuildingblock', version: 'v2-preview' });
    assert.deepEqual(negotiated.deprecated, [lifecycleOf({ kind: 'meshbuildingblock', version: 'v1' })]);
  });
});

describe('negotiate: plain bodies', () => {
  it('accepts the listed unversioned body types, with or without parameters', () => {
    assert.deepEqual(negotiate({ 'content-type': 'application/x-www-form-urlencoded' }, LOGIN, VENDORS, NOW), {
      vendor: 'vendor',
      deprecated: [],
    });
    assert.deepEqual(negotiate({ 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8' }, LOGIN, VENDORS, NOW), {
      vendor: 'vendor',
      deprecated: [],
    });
    assert.deepEqual(negotiate({ 'content-type': 'application/json' }, LOGIN, VENDORS, NOW), { vendor: 'vendor', deprecated: [] });
  });
  it('answers 415 for other body types, listing the accepted ones', () => {
    fails(
      () => negotiate({ 'content-type': 'text/plain' }, LOGIN, VENDORS, NOW),
      415,
      /"text\/plain"/,
      /application\/x-www-form-urlencoded, application\/json/,
    );
    fails(() => negotiate({ 'content-type': 'multipart/form-data' }, LOGIN, VENDORS, NOW), 415);
    fails(() => negotiate({}, LOGIN, VENDORS, NOW), 415);
  });
  it('lets a plain body stand in for a versioned one when the route takes both', () => {
    const media: RouteMedia = { ...CREATE_BLOCK, plainBodies: ['application/x-www-form-urlencoded'] };
    const negotiated = negotiate(
      { accept: type('meshbuildingblock', 'v2-preview'), 'content-type': 'application/x-www-form-urlencoded' },
      media,
      VENDORS,
      NOW,
    );
    assert.equal(negotiated.consumes, undefined);
    assert.deepEqual(negotiated.produces, { kind: 'meshbuildingblock', version: 'v2-preview' });
    fails(() => negotiate({ accept: type('meshbuildingblock', 'v2-preview'), 'content-type': 'text/plain' }, media, VENDORS, NOW), 415);
  });
});

describe('retiredVersionNamed (paths of kinds not served here)', () => {
  it('is a 406 with the retirement message for a retired version of the kind in Accept', () => {
    const error = retiredVersionNamed({ accept: `application/json, ${type('meshUser', 'v1', 'meshcloud')}` }, VENDORS, NOW);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 406);
    assert.equal(error.message, 'version v1 of meshuser was retired on 2025-03-01; use meshUser.v2 instead');
  });
  it('is a 415 for a retired version of the kind as the body type', () => {
    assert.equal(
      retiredVersionNamed({ accept: type('meshuser', 'v2'), 'content-type': type('meshuser', 'v1') }, VENDORS, NOW)?.status,
      415,
    );
  });
  it('is nothing for versions not retired, versions before their end of life and no headers', () => {
    assert.equal(retiredVersionNamed({ accept: type('meshuser', 'v2') }, VENDORS, NOW), undefined);
    assert.equal(retiredVersionNamed({ accept: type('meshtenant', 'v3') }, VENDORS, NOW), undefined);
    assert.equal(retiredVersionNamed({ accept: type('meshuser', 'v1') }, VENDORS, new Date('2025-03-01T12:00:00Z')), undefined);
    assert.equal(retiredVersionNamed({}, VENDORS, NOW), undefined);
  });
});

describe('negotiateRemembered', () => {
  it('answers the same header pair of a route with the same result, and other pairs and routes afresh', () => {
    const route: RouteMedia = {
      produces: [
        { kind: 'meshbuildingblock', version: 'v2-preview' },
        { kind: 'meshbuildingblock', version: 'v1' },
      ],
    };
    const other: RouteMedia = { produces: [{ kind: 'meshbuildingblock', version: 'v2-preview' }] };
    const first = negotiateRemembered({ accept: type('meshbuildingblock', 'v2-preview') }, route, VENDORS);
    assert.equal(negotiateRemembered({ accept: type('meshbuildingblock', 'v2-preview') }, route, VENDORS), first);
    assert.ok(Object.isFrozen(first));
    assert.equal(negotiateRemembered({ accept: type('meshbuildingblock', 'v1') }, route, VENDORS).produces?.version, 'v1');
    assert.notEqual(negotiateRemembered({ accept: type('meshbuildingblock', 'v2-preview') }, other, VENDORS), first);
  });
  it("remembers per configured vendors: another server does not get this one's answer", () => {
    const route: RouteMedia = { produces: [{ kind: 'meshbuildingblock', version: 'v2-preview' }] };
    const accept = type('meshbuildingblock', 'v2-preview', 'meshcloud');
    assert.equal(negotiateRemembered({ accept }, route, ['vendor', 'meshcloud']).vendor, 'meshcloud');
    assert.throws(
      () => negotiateRemembered({ accept }, route, ['vendor']),
      (error: unknown) => error instanceof ApiError && error.status === 406,
    );
  });
  it('refuses every time, without remembering a refusal', () => {
    const route: RouteMedia = { produces: [{ kind: 'meshbuildingblock', version: 'v2-preview' }] };
    for (let i = 0; i < 2; i++)
      assert.throws(
        () => negotiateRemembered({ accept: 'text/html' }, route, VENDORS),
        (error: unknown) => error instanceof ApiError && error.status === 406,
      );
  });
});
