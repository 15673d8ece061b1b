import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayWidth, inertJson, visible } from './terminal.js';

describe('terminal text', () => {
  it('writes out every control character: ESC sequences, OSC titles and links, CR, C1, bidi overrides', () => {
    assert.equal(visible('\u001b[32mSUCCEEDED\u001b[0m'), '\\x1b[32mSUCCEEDED\\x1b[0m');
    assert.equal(visible('\u001b]0;pwned\u0007'), '\\x1b]0;pwned\\x07');
    assert.equal(visible('\u001b]8;;http://evil\u0007x\u001b]8;;\u0007'), '\\x1b]8;;http://evil\\x07x\\x1b]8;;\\x07');
    assert.equal(visible('ok\rFAILED\nnext\ttab'), 'ok\\rFAILED\\nnext\\ttab');
    assert.equal(visible('\u009b31m \u0085 \u007f'), '\\x9b31m \\x85 \\x7f');
    assert.equal(visible('txt.\u202eexe \u2066x\u2069 \u200f'), 'txt.\\u202eexe \\u2066x\\u2069 \\u200f');
    assert.equal(visible('plain, 日本語 and 👍'), 'plain, 日本語 and 👍');
  });

  it('keeps JSON the same data with C1 and bidi characters escaped', () => {
    const data = { name: 'a\u202eb\u009bc', nested: ['\u001b[0m'] };
    const json = inertJson(JSON.stringify(data, null, 2));
    assert.doesNotMatch(json, /[\u0080-\u009f\u202e]/);
    assert.deepEqual(JSON.parse(json), data);
  });

  it('measures terminal columns: wide characters and emoji take two, combining marks none', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本語'), 6);
    assert.equal(displayWidth('한국어'), 6);
    assert.equal(displayWidth('ｆｕｌｌ'), 8);
    assert.equal(displayWidth('👍'), 2);
    assert.equal(displayWidth('👨‍👩‍👧'), 2);
    assert.equal(displayWidth('🇩🇪'), 2);
    assert.equal(displayWidth('❤️'), 2);
    assert.equal(displayWidth('é'), 1);
    assert.equal(displayWidth('e\u0301'), 1);
    assert.equal(displayWidth('a\u200bb'), 2);
  });
});
