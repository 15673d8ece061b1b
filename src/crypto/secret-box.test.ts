import assert from 'node:assert/strict';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { legacyHashKey, masterKeyId, SecretBox } from './secret-box.js';
import { resealSecrets } from './secret-values.js';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);

/** A value sealed as versions before key ids did: `v1:` and AES-256-GCM under the derived encryption key. */
function sealV1(masterKey: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHmac('sha256', masterKey).update('blockyard/encryption').digest(), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

describe('secret box', () => {
  it('seals under the current master key, naming it, and opens what it sealed', () => {
    const box = new SecretBox(NEW);
    const sealed = box.encrypt('s3cret');
    assert.match(sealed, new RegExp(`^v2:${masterKeyId(NEW)}:`));
    assert.doesNotMatch(sealed, /s3cret/);
    assert.equal(box.decrypt(sealed), 's3cret');
    assert.ok(box.isCurrent(sealed));
  });

  it('opens values of previous master keys, v1 and v2, and re-encrypts them under the current one', () => {
    const before = new SecretBox(OLD).encrypt('two');
    const legacy = sealV1(OLD, 'one');
    const box = new SecretBox(NEW, { previous: [OLD] });
    assert.equal(box.decrypt(legacy), 'one');
    assert.equal(box.decrypt(before), 'two');
    assert.ok(!box.isCurrent(before) && !box.isCurrent(legacy));
    const again = box.reencrypt(before);
    assert.ok(box.isCurrent(again));
    assert.equal(new SecretBox(NEW).decrypt(again), 'two');
    assert.equal(box.reencrypt(again), again, 'a current value stays as it is');
  });

  it('refuses values of master keys it is not given', () => {
    const box = new SecretBox(NEW);
    assert.throws(() => box.decrypt(new SecretBox(OLD).encrypt('x')), /not configured/);
    assert.throws(() => box.decrypt(sealV1(OLD, 'x')), /not configured/);
    assert.throws(() => box.decrypt('plain'), /unknown sealed value format/);
  });

  it('hashes with the hash key it is given, whatever the master key', () => {
    const hashKey = legacyHashKey(OLD);
    assert.equal(new SecretBox(NEW, { hashKey }).hash('v'), new SecretBox(OLD).hash('v'));
    assert.notEqual(new SecretBox(NEW).hash('v'), new SecretBox(OLD).hash('v'));
  });

  it('reseals every sealed secret of a document, keeps hashes, and counts what it cannot open', () => {
    const old = new SecretBox(OLD);
    const box = new SecretBox(NEW, { previous: [OLD], hashKey: legacyHashKey(OLD) });
    const document = {
      a: { hash: old.hash('a'), ciphertext: old.encrypt('a') },
      list: [{ hash: old.hash('b'), ciphertext: sealV1(OLD, 'b') }],
      plain: 1,
    };
    const { value, resealed, unreadable } = resealSecrets(document, box);
    assert.equal(resealed, 2);
    assert.equal(unreadable, 0);
    const out = value as typeof document;
    assert.equal(out.a.hash, document.a.hash);
    assert.equal(new SecretBox(NEW).decrypt(out.a.ciphertext), 'a');
    assert.equal(new SecretBox(NEW).decrypt(out.list[0]!.ciphertext), 'b');
    assert.equal(resealSecrets(out, box).resealed, 0, 'a second run finds nothing to do');
    const foreign = resealSecrets({ x: { hash: 'sha256:00', ciphertext: new SecretBox(Buffer.alloc(32, 3)).encrypt('x') } }, box);
    assert.deepEqual([foreign.resealed, foreign.unreadable], [0, 1]);
  });
});
