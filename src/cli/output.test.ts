import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cell, renderData, renderTable, valueAt } from './output.js';

describe('CLI output', () => {
  it('pads columns to their widest cell, measured before styling, with no trailing blanks', () => {
    const rows = [
      ['a', 'SUCCESS', ''],
      ['longer-name', 'FAILED', 'why'],
    ];
    const styled = renderTable(['OBJECT', 'STATUS', 'MESSAGE'], rows, {
      header: (text) => `<${text}>`,
      cell: (header, text) => (header === 'STATUS' ? `*${text}*` : text),
    });
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

describe('CLI output from other people', () => {
  it('pads by terminal columns and shows control characters in cells', () => {
    assert.equal(
      renderTable(
        ['NAME', 'X'],
        [
          ['日本', 'a'],
          ['ab', 'b'],
        ],
      ),
      'NAME  X\n日本  a\nab    b\n',
    );
    assert.equal(renderTable(['NAME', 'X'], [['\u001b[31mred', 'a']]), 'NAME         X\n\\x1b[31mred  a\n');
  });

  it('prints YAML and JSON with C1 and bidi characters escaped, the same data', () => {
    const data = { name: 'x\u202ey\u009b', ok: 'plain' };
    for (const format of ['json', 'yaml'] as const) {
      const text = renderData(format, data, true);
      assert.doesNotMatch(text, /[\u0080-\u009f\u202e]/, text);
    }
    assert.equal(renderData('yaml', { ok: 'plain' }, true), 'ok: plain\n');
  });
});
