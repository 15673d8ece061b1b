import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestSeries, ServerMetrics } from '../metrics/server-metrics.js';
import { routeSchema } from './route-schemas.js';

/** The route label of requests no route matched: one series however many paths clients try. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The request metrics of one route: a series per method and status, made on first use. */
interface RouteSeries {
  route: string;
  streaming: boolean;
  byMethod: Map<string, Map<number, RequestSeries>>;
}

/**
 * Every answer is counted and timed under its route template (`/api/meshobjects/meshworkspaces/:id`,
 * never the URL a client sent: the number of series stays bounded by the route table), its method
 * and status code. The series are looked up through the route's own config object: after the first
 * request of a route, method and status, counting costs two map lookups and no allocation.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  const routes = new WeakMap<object, RouteSeries>();
  const seriesOf = (request: FastifyRequest, reply: FastifyReply): RequestSeries => {
    const options = request.routeOptions;
    const config = options.config;
    let route = routes.get(config);
    if (!route) {
      route = {
        route: request.is404 || options.url === undefined ? UNMATCHED_ROUTE : options.url,
        streaming: config.streaming === true,
        byMethod: new Map(),
      };
      routes.set(config, route);
    }
    let byStatus = route.byMethod.get(request.method);
    if (!byStatus) route.byMethod.set(request.method, (byStatus = new Map()));
    let series = byStatus.get(reply.statusCode);
    if (!series) {
      series = metrics.requestSeries(request.method, route.route, reply.statusCode, route.streaming);
      byStatus.set(reply.statusCode, series);
    }
    return series;
  };
  app.addHook('onResponse', (request, reply, done) => {
    seriesOf(request, reply).observe(reply.elapsedTime / 1000);
    done();
  });
}

/**
 * `GET /metrics` on the API's own listener: the Prometheus exposition, for admins only (an API user
 * or a key holding an `ADM_` code): it shows the route table's traffic, the runners' queues and the
 * failed sign-ins of the whole service. docs/metrics.md.
 */
export async function metricsRoutes(app: FastifyInstance, { metrics }: { metrics: ServerMetrics }): Promise<void> {
  const body = [{ media: 'text/plain', schema: Type.String({ description: 'The Prometheus text exposition format 0.0.4' }) }];
  const schema = routeSchema(
    'GET',
    '/metrics',
    {
      summary: 'Prometheus metrics (admins only)',
      responses: { 200: { description: 'every metric of this instance (docs/metrics.md)', body } },
    },
    'admin',
    undefined,
    [],
  );
  app.get('/metrics', { config: { access: 'admin' }, schema }, async (_request, reply) => {
    const { contentType, text } = await metrics.scrape();
    return reply.type(contentType).send(text);
  });
}
