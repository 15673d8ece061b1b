import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

/**
 * The benchmark's baseline: a minimal Node HTTPS server with the service's TLS settings and
 * certificate, answering every request with a static JSON body the size of a building block
 * response. Every scenario is reported as a ratio to what this reaches in the same run.
 */
const [certFile, keyFile, bodyFile] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile);
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), minVersion: 'TLSv1.2' }, (request, response) => {
  request.resume();
  response.writeHead(200, {
    'content-type': 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json',
    'content-length': body.length,
  });
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`baseline listening on https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
