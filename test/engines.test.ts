/**
 * Every Node version our `engines` field promises must be one every installed package accepts too:
 * otherwise `npm ci` warns EBADENGINE there (and the package may well not run on it). Checked on the
 * lockfile, which is what `npm ci` installs, at the first release of each Node line we support.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import semver from 'semver';

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const read = <T>(file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as T;

/** The lowest version of each alternative of a range: `^20.19.0 || ^22.13.0 || >=24` → 20.19.0, 22.13.0, 24.0.0. */
function firstOfEachLine(range: string): string[] {
  return new semver.Range(range).set.map((comparators) => semver.minVersion(new semver.Range(comparators.map(String).join(' ')))!.version);
}

it('no locked package refuses a Node version our engines field supports', () => {
  const ours = read<{ engines: { node: string } }>('package.json').engines.node;
  const versions = firstOfEachLine(ours);
  assert.deepEqual(versions, ['20.19.0', '22.13.0', '24.0.0'], 'the supported lines this check was written for');
  const { packages } = read<{ packages: Record<string, LockedPackage> }>('package-lock.json');
  const refusing: string[] = [];
  for (const [where, locked] of Object.entries(packages)) {
    // An old form (a list) or a package without a Node requirement accepts every version.
    const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
    if (where === '' || range === undefined) continue;
    const refused = versions.filter((version) => !semver.satisfies(version, range, { includePrerelease: true }));
    if (refused.length > 0) refusing.push(`${where}@${locked.version}: engines.node "${range}" refuses ${refused.join(', ')}`);
  }
  assert.deepEqual(refusing, [], 'pin a version that accepts them (package.json overrides) or change the parent');
});
