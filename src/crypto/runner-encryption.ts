import { X509Certificate, constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Encrypting a value for a runner (COMPAT §11): base64 of
 * `RSA-OAEP-SHA1(k) ‖ uint32-BE(12) ‖ IV ‖ AES-128-GCM(k, IV, plaintext) ‖ tag`
 * with a fresh 16-byte key `k` and 12-byte IV per value; only the runner's private key opens it.
 */
export function encryptForRunner(publicKey: KeyObject, plaintext: string): string {
  const key = randomBytes(16);
  const iv = randomBytes(12);
  const wrapped = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, key);
  const cipher = createCipheriv('aes-128-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const ivLength = Buffer.alloc(4);
  ivLength.writeUInt32BE(iv.length);
  return Buffer.concat([wrapped, ivLength, iv, body, cipher.getAuthTag()]).toString('base64');
}

/** The RSA public key of a runner's PEM: an X.509 certificate (what runners register) or a bare public key. */
export function runnerPublicKey(pem: string): KeyObject {
  const label = /-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1];
  // Never a private key (createPublicKey would derive one from it, and the PEM is echoed to readers).
  if (label !== 'CERTIFICATE' && label !== 'PUBLIC KEY' && label !== 'RSA PUBLIC KEY')
    throw new Error(`a ${label ?? 'non-PEM'} block is no certificate or public key`);
  const key = label === 'CERTIFICATE' ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`the key is ${key.asymmetricKeyType ?? 'unknown'}, not RSA`);
  return key;
}
