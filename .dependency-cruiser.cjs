/**
 * The layering of src/ (README "Design"): arrows point only `http → kinds → lib/store`, and no import
 * cycle exists, type-only imports included. `npm run lint` runs this after eslint.
 */
const AUTH_CORE = '^src/auth/(principal|permissions|policy|route-access|context)[.]ts$';

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'No import cycle, type-only imports included.', from: {}, to: { circular: true } },
    {
      name: 'lib-is-a-leaf',
      severity: 'error',
      comment: 'lib/ imports only lib/.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(?!lib/)' },
    },
    {
      name: 'lib-without-frameworks',
      severity: 'error',
      comment: 'lib/ knows no web framework and no database.',
      from: { path: '^src/lib/' },
      to: { path: 'node_modules/(fastify|@fastify|kysely|pg|better-sqlite3)/' },
    },
    {
      name: 'store-below-kinds',
      severity: 'error',
      comment: 'store/ is below the kinds: lib/, config and itself.',
      from: { path: '^src/store/' },
      to: { path: '^src/(?!store/|lib/|config[.]ts$)' },
    },
    { name: 'crypto-below-kinds', severity: 'error', from: { path: '^src/crypto/' }, to: { path: '^src/(?!crypto/|lib/|config[.]ts$)' } },
    {
      name: 'auth-core-is-low',
      severity: 'error',
      comment: 'Principals, permissions, the policy and route access depend on lib/ only.',
      from: { path: AUTH_CORE },
      to: { path: '^src/(?!lib/|auth/(principal|permissions|policy|route-access|context)[.]ts$)' },
    },
    {
      name: 'kinds-below-http',
      severity: 'error',
      comment:
        'kinds/ never reaches up: no http/, import, composition root, the registry and what is derived from it, or the identity layer built on the kinds.',
      from: { path: '^src/kinds/' },
      to: {
        path: '^src/(http/|import/|scim/|server[.]ts|services[.]ts|main[.]ts|admin-cli[.]ts|lifecycle[.]ts|kinds/registry[.]ts|auth/(authenticate|bootstrap|revocation)[.]ts)',
      },
    },
    {
      name: 'blocks-before-runs',
      severity: 'error',
      comment: 'kinds/run depends on kinds/block, never the other way.',
      from: { path: '^src/kinds/block/' },
      to: { path: '^src/kinds/run/' },
    },
    {
      name: 'scim-below-http',
      severity: 'error',
      comment: 'SCIM (scim/) is a protocol over the authorized services: below http/, beside the import.',
      from: { path: '^src/scim/' },
      to: { path: '^src/(http/|import/|server[.]ts|services[.]ts|main[.]ts|admin-cli[.]ts)' },
    },
    {
      name: 'import-below-http',
      severity: 'error',
      from: { path: '^src/import/' },
      to: { path: '^src/(http/|server[.]ts|services[.]ts|main[.]ts)' },
    },
    {
      name: 'fastify-only-in-http',
      severity: 'error',
      comment: 'Only http/ (and the composition root) know the web framework.',
      from: { path: '^src/(?!http/|server[.]ts$)' },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'console-is-a-client',
      severity: 'error',
      comment:
        'The web console (browser code) reaches the server only through the public API; it shares the permission codes and nothing else.',
      from: { path: '^src/console/' },
      to: { path: '^src/(?!console/|auth/permissions[.]ts$)' },
    },
    {
      name: 'server-without-console',
      severity: 'error',
      comment: 'The server serves the built console; it never imports its sources.',
      from: { path: '^src/(?!console/)' },
      to: { path: '^src/console/' },
    },
    {
      name: 'no-sql-in-http',
      severity: 'error',
      comment: 'http/ reaches storage only through the kinds.',
      from: { path: '^src/http/' },
      to: { path: 'node_modules/(kysely|pg|better-sqlite3)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
