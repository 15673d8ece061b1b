import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cell, renderData, renderTable, valueAt } from './output.js';

describe('CLI output', () => {
  it('pads columns to their widest cell, measured before styling, with no trailing blanks', () => {
    const rows = [
      ['a', 'SUCCESS', ''],
      ['longer-name', 'FAILED', 'why'],
    ];
    const styled = renderTable(['OBJECT', 'STATUS', 'MESSAGE'], rows, { header: (text) => `<${text}>`, cell: (header, text) => (header === 'STATUS' ? `*${text}*` : text) });
    assert.equal(styled, '<OBJECT>       <STATUS>   <MESSAGE>\na            *SUCCESS*\nlonger-name  *FAILED*   why\n');
    assert.equal(renderTable(['ID', 'NAME'], [['x', 'y']]), 'ID  NAME\nx   y\n');
  });

  it('reads dotted paths, array indexes included; cells show scalars as they are and objects as JSON', () => {
    const object = { spec: { targetRef: { kind: 'meshTenant' }, subjects: [{ name: 'jane' }], amount: 0, tags: { env: ['dev'] } } };
    assert.equal(valueAt(object, 'spec.targetRef.kind'), 'meshTenant');
    assert.equal(valueAt(object, 'spec.subjects.0.name'), 'jane');
    assert.equal(valueAt(object, 'spec.missing.deeper'), undefined);
    assert.equal(cell(valueAt(object, 'spec.amount')), '0');
    assert.equal(cell(valueAt(object, 'spec.tags')), '{"env":["dev"]}');
    assert.equal(cell(null), '');
  });

  it('prints one object as itself and several as a JSON array or a YAML document stream', () => {
    assert.equal(renderData('json', { a: 1 }, true), '{\n  "a": 1\n}\n');
    assert.equal(renderData('yaml', { a: 1 }, true), 'a: 1\n');
    assert.equal(renderData('yaml', [{ a: 1 }, { a: 2 }], false), '---\na: 1\n---\na: 2\n');
  });
});
