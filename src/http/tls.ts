import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { ConfigError, type Config } from '../config.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate came from, for the start-up message. */
  certFile: string;
}

/**
 * TLS is not optional (spec §1: HTTPS only). Uses BLOCKYARD_TLS_CERT/KEY when given, otherwise a
 * self-signed certificate for localhost/127.0.0.1/::1 that is generated once into `<data dir>/tls/`
 * and reused, so clients can trust it with `curl --cacert` or NODE_EXTRA_CA_CERTS.
 */
export async function loadTlsMaterial(config: Config): Promise<TlsMaterial> {
  if (config.tls) {
    const cert = await readPem(config.tls.certFile, 'BLOCKYARD_TLS_CERT');
    const key = await readPem(config.tls.keyFile, 'BLOCKYARD_TLS_KEY');
    try {
      new X509Certificate(cert);
    } catch {
      throw new ConfigError('BLOCKYARD_TLS_CERT', `${config.tls.certFile} holds no PEM certificate`);
    }
    return { cert, key, certFile: config.tls.certFile };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  try {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), certFile };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const generated = await generateSelfSigned();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Write both under temporary names first: a concurrent or interrupted start never sees half a pair.
  const suffix = `.${process.pid}.tmp`;
  await writeFile(keyFile + suffix, generated.key, { mode: 0o600 });
  await writeFile(certFile + suffix, generated.cert, { mode: 0o644 });
  await rename(keyFile + suffix, keyFile);
  await rename(certFile + suffix, certFile);
  return { ...generated, certFile };
}

async function readPem(file: string, variable: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(variable, `cannot read ${file}: ${(error as Error).message}`);
  }
}

async function generateSelfSigned(): Promise<{ cert: string; key: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 5 * 365 * 86_400_000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
