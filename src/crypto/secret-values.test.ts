import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../lib/errors.js';
import { SecretBox } from './secret-box.js';
import { hideSecrets, isSealedSecret, sealSecrets } from './secret-values.js';

const box = new SecretBox(Buffer.alloc(32, 7));

describe('secret values', () => {
  it('seals {plaintext} anywhere, encrypted and hashed, and shows only the hash', () => {
    const sealed = sealSecrets(
      { type: 'azure', azure: { credential: { plaintext: 's3cret' }, list: [{ plaintext: 'x' }], clientId: 'c' } },
      undefined,
      box,
      'spec.config',
    ) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.ok(isSealedSecret(sealed.azure.credential));
    assert.equal(box.decrypt(sealed.azure.credential.ciphertext), 's3cret');
    assert.equal(sealed.azure.credential.hash, box.hash('s3cret'));
    const shown = hideSecrets(sealed);
    assert.deepEqual(shown, {
      type: 'azure',
      azure: { credential: { hash: box.hash('s3cret') }, list: [{ hash: box.hash('x') }], clientId: 'c' },
    });
    assert.doesNotMatch(JSON.stringify(shown), /s3cret|ciphertext/);
  });

  it('keeps the stored secret for its own hash and answers 409 for another', () => {
    const previous = sealSecrets({ credential: { plaintext: 'one' } }, undefined, box, 'spec.config') as { credential: unknown };
    const kept = sealSecrets({ credential: { hash: box.hash('one') } }, previous, box, 'spec.config') as { credential: unknown };
    assert.deepEqual(kept.credential, previous.credential);
    assert.throws(
      () => sealSecrets({ credential: { hash: box.hash('two') } }, previous, box, 'spec.config'),
      (error: ApiError) => error.status === 409 && error.message.startsWith('spec.config.credential'),
    );
    assert.throws(
      () => sealSecrets({ credential: { hash: box.hash('one') } }, undefined, box, 'spec.config'),
      (error: ApiError) => error.status === 409,
    );
  });

  it('refuses a client-made sealed form and leaves other objects alone', () => {
    assert.throws(
      () => sealSecrets({ hash: 'sha256:00', ciphertext: 'v1:AA' }, undefined, box, 'spec.config'),
      (error: ApiError) => error.status === 400,
    );
    assert.deepEqual(sealSecrets({ plaintext: 'a', other: 1 }, undefined, box, 'x'), { plaintext: 'a', other: 1 });
  });
});
