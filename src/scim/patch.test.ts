import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFilter, parsePath } from './attributes.js';
import type { ScimError } from './errors.js';
import { groupPlace, memberChanges } from './groups.js';
import { applyPatch } from './patch.js';

const ops = (...operations: object[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
const scimType = (type: string) => (error: ScimError) => error.scimType === type;

describe('parseFilter', () => {
  it('takes eq and pr joined by and, attribute names in any case, schema prefixes', () => {
    assert.deepEqual(parseFilter('UserName eq "Jane@X"'), [{ attr: 'userName', op: 'eq', value: 'Jane@X' }]);
    assert.deepEqual(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a" and emails.VALUE eq "b\\"c"'), [
      { attr: 'userName', op: 'eq', value: 'a' },
      { attr: 'emails.value', op: 'eq', value: 'b"c' },
    ]);
    assert.deepEqual(parseFilter('active eq true and title pr'), [
      { attr: 'active', op: 'eq', value: true },
      { attr: 'title', op: 'pr' },
    ]);
  });
  it('refuses other operators, or, and malformed filters as invalidFilter', () => {
    for (const filter of ['userName co "a"', 'userName eq "a" or userName eq "b"', 'userName eq', 'userName eq a', '', 'a eq "b" and']) {
      assert.throws(() => parseFilter(filter), scimType('invalidFilter'), filter);
    }
  });
});

describe('parsePath', () => {
  it('parses attr, attr.sub, attr[filter].sub and extension paths', () => {
    assert.deepEqual(parsePath('Name.GivenName'), { attr: 'name', sub: 'givenName' });
    assert.deepEqual(parsePath('emails[type eq "work"].value'), {
      attr: 'emails',
      filter: [{ attr: 'type', op: 'eq', value: 'work' }],
      sub: 'value',
    });
    assert.deepEqual(parsePath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department'), {
      extension: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      attr: 'department',
    });
    assert.throws(() => parsePath('emails[type eq'), scimType('invalidPath'));
    assert.throws(() => parsePath('a b'), scimType('invalidPath'));
  });
});

describe('applyPatch', () => {
  const user = {
    userName: 'jane',
    name: { givenName: 'Jane', familyName: 'Doe' },
    emails: [{ value: 'j@x', type: 'work', primary: true }],
    active: true,
  };

  it("applies Entra ID's forms: Replace with a path, path-less with paths as keys, string booleans kept for the mapping", () => {
    const result = applyPatch(
      user,
      ops(
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'replace', value: { 'name.givenName': 'Janet', 'emails[type eq "work"].value': 'janet@x' } },
      ),
    );
    assert.deepEqual(result, {
      userName: 'jane',
      name: { givenName: 'Janet', familyName: 'Doe' },
      emails: [{ value: 'janet@x', type: 'work', primary: true }],
      active: 'False',
    });
  });

  it('creates the element an eq filter names when none matches, merges complex values, appends to lists once', () => {
    const result = applyPatch(
      user,
      ops(
        { op: 'add', path: 'emails[type eq "home"].value', value: 'h@x' },
        { op: 'add', path: 'name', value: { middleName: 'M' } },
        { op: 'add', path: 'emails', value: [{ value: 'j@x' }, { value: 'k@x' }] },
      ),
    );
    assert.deepEqual(result.emails, [{ value: 'j@x', type: 'work', primary: true }, { type: 'home', value: 'h@x' }, { value: 'k@x' }]);
    assert.deepEqual(result.name, { givenName: 'Jane', familyName: 'Doe', middleName: 'M' });
  });

  it('removes members by a value list and by a value filter', () => {
    const group = { displayName: 'g', members: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] };
    assert.deepEqual(
      applyPatch(group, ops({ op: 'Remove', path: 'members', value: [{ value: 'A' }] }, { op: 'remove', path: 'members[value eq "c"]' }))
        .members,
      [{ value: 'b' }],
    );
    assert.deepEqual(applyPatch(group, ops({ op: 'remove', path: 'members' })).members, undefined);
  });

  it('refuses what it cannot apply with the scimType RFC 7644 names', () => {
    assert.throws(() => applyPatch(user, ops({ op: 'remove' })), scimType('noTarget'));
    assert.throws(() => applyPatch(user, ops({ op: 'copy', path: 'a' })), scimType('invalidSyntax'));
    assert.throws(() => applyPatch(user, { Operations: [] }), scimType('invalidSyntax'));
    assert.throws(() => applyPatch(user, ops({ op: 'replace', path: 'emails[display pr].value', value: 'x' })), scimType('noTarget'));
    assert.throws(() => applyPatch(user, ops({ op: 'replace', value: 'x' })), scimType('invalidValue'));
  });
});

describe('groupPlace', () => {
  it('takes the workspace from "<workspace>.<group>", else the configured one, and makes the name an identifier', () => {
    assert.deepEqual(groupPlace('My-Team.Cloud Admins', undefined), { workspace: 'my-team', name: 'cloud-admins' });
    assert.deepEqual(groupPlace('Cloud Admins', 'people'), { workspace: 'people', name: 'cloud-admins' });
    assert.deepEqual(groupPlace('Team A.B', 'people'), { workspace: 'people', name: 'team-a-b' });
    assert.throws(() => groupPlace('Cloud Admins', undefined), scimType('invalidValue'));
    assert.throws(() => groupPlace('ws.--', undefined), scimType('invalidValue'));
  });
});

describe('memberChanges', () => {
  it('recognises member-only PATCHes as Entra ID and Okta send them', () => {
    assert.deepEqual(
      memberChanges(
        ops(
          { op: 'Add', path: 'members', value: [{ value: 'a' }, { value: 'b', display: 'B' }] },
          { op: 'Remove', path: 'members', value: [{ value: 'c' }] },
          { op: 'remove', path: 'members[value eq "d"]' },
        ),
      ),
      { add: ['a', 'b'], remove: ['c', 'd'] },
    );
  });
  it('leaves everything else to the general way', () => {
    for (const body of [
      ops({ op: 'replace', path: 'members', value: [{ value: 'a' }] }),
      ops({ op: 'remove', path: 'members' }),
      ops({ op: 'add', path: 'members', value: [{ value: 'a' }] }, { op: 'replace', path: 'displayName', value: 'x' }),
      ops({ op: 'add', path: 'members', value: [{ value: 'a' }] }, { op: 'remove', path: 'members[value eq "a"]' }),
      ops({ op: 'add', path: 'members', value: [{ value: 'g', type: 'Group' }] }),
      ops({ op: 'replace', value: { members: [] } }),
    ]) {
      assert.equal(memberChanges(body), undefined, JSON.stringify(body));
    }
  });
});
