import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app.js';
import { JSON_CONTENT_TYPE } from '../lib/media-types.js';
import { routeSchema } from './route-schemas.js';

const Up = Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]);
/** crypto/keyring.ts KeyringState: a server whose master key opens nothing stored does not start, unless told to abandon it. */
const Keyring = Type.Union([Type.Literal('UP'), Type.Literal('ROTATING'), Type.Literal('ABANDONED')], {
  description:
    'UP: the master key opens the stored keys; ROTATING: previous master keys are configured (finish with rotate-master-key); ABANDONED: started with BLOCKYARD_ABANDON_SEALED_SECRETS, everything sealed before is given up',
});
const health = (summary: string, path: string, schema: ReturnType<typeof Type.Object>, down = false) => {
  const body = [{ media: 'application/json', schema }];
  const responses: Record<number, { description: string; body: typeof body }> = { 200: { description: 'up', body } };
  if (down) responses[503] = { description: 'the database does not answer (Retry-After)', body };
  return routeSchema('GET', path, { summary, responses }, 'public', undefined, []);
};

/** Liveness and readiness for load balancers and orchestrators: no auth, plain JSON. */
export async function healthRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.get(
    '/healthz',
    { config: { access: 'public' }, schema: health('Liveness', '/healthz', Type.Object({ status: Up })) },
    async (_request, reply) => reply.type(JSON_CONTENT_TYPE).send({ status: 'UP' }),
  );

  const ready = Type.Object({ status: Up, database: Up, keyring: Keyring });
  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: health('Readiness (the database answers; the keyring as the master key opened it)', '/readyz', ready, true),
    },
    async (request, reply) => {
      const { keyring } = context;
      try {
        await withTimeout(context.ping(), 2000);
        return reply.type(JSON_CONTENT_TYPE).send({ status: 'UP', database: 'UP', keyring });
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).header('retry-after', '5').type(JSON_CONTENT_TYPE).send({ status: 'DOWN', database: 'DOWN', keyring });
      }
    },
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
