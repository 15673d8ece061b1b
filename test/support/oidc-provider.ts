import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Provider from 'oidc-provider';
import selfsigned from 'selfsigned';

/** A person the provider knows: its login (any password) and the claims it sends. */
export interface ProviderAccount {
  login: string;
  claims: Record<string, unknown>;
}

export interface TestOpenIdProvider {
  issuer: string;
  /** BLOCKYARD_OIDC_* for a Blockyard whose public URL is `publicUrl`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const OIDC_CLIENT = { id: 'blockyard-console', secret: 'oidc-client-secret-for-tests' };

/** A free TCP port on 127.0.0.1 (for a server whose URL must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A self-signed leaf for localhost, named apart from Blockyard's own (`localhost` too): a client
 * trusting both finds each by its subject.
 */
async function providerCertificate(certFile: string): Promise<{ cert: string; key: string; certFile: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'test OpenID Provider' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
    ],
  });
  await writeFile(certFile, pems.cert);
  return { cert: pems.cert, key: pems.private, certFile };
}

/**
 * A real OpenID Provider (oidc-provider) in this process, over HTTPS with a generated certificate
 * (BLOCKYARD_OIDC_CA trusts it): one confidential client for `publicUrl`'s callback, PKCE required,
 * its development login and consent pages (any password signs in as the login typed, with the
 * claims `accounts` give it, else its login as `preferred_username`).
 */
export async function startOpenIdProvider(publicUrl: string, accounts: readonly ProviderAccount[]): Promise<TestOpenIdProvider> {
  const dir = await mkdtemp(path.join(tmpdir(), 'blockyard-oidc-'));
  const tls = await providerCertificate(path.join(dir, 'provider.pem'));
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server: Server = createHttpsServer({ cert: tls.cert, key: tls.key }, (request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://localhost:${(server.address() as AddressInfo).port}`;
  const byLogin = new Map(accounts.map((account) => [account.login, account]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${publicUrl}/auth/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['preferred_username', 'given_name', 'family_name'], email: ['email'] },
    cookies: { keys: ['oidc-provider-cookie-key-for-tests'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...(byLogin.get(id)?.claims ?? { preferred_username: id }) }) }),
  });
  handle = provider.callback();
  return {
    issuer,
    env: {
      BLOCKYARD_OIDC_ISSUER: issuer,
      BLOCKYARD_OIDC_CLIENT_ID: OIDC_CLIENT.id,
      BLOCKYARD_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      BLOCKYARD_OIDC_CA: tls.certFile,
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
