/**
 * Layer rules of the hexagon, checked on every `npm test`: dependencies point inwards.
 * domain <- application <- infrastructure / apps. Drivers and frameworks stay out of the core.
 */
const DRIVERS = '^(better-sqlite3|mongodb|@eventstore/db-client|ioredis|redis|fastify|undici)';
/**
 * The one package the domain may use: Immutable.js, pure data structures with no dependencies and
 * no I/O, for aggregate states that must never be changed in place (the workspace's slot holders).
 * By its entry point only.
 */
const DOMAIN_LIBRARIES = '(^|/)node_modules/immutable/dist/immutable\\.js$';
/** The frameworks whose files below their entry point are internal (see no-dependency-internals). */
const INTERNALS_OF = '(@nestjs/[^/]+|class-validator|class-transformer)';
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'The domain knows nothing of NestJS, HTTP, databases or the other layers; of npm packages it ' +
        'uses only the pure data structures of DOMAIN_LIBRARIES.',
      severity: 'error',
      from: { path: '^libs/domain' },
      to: { pathNot: ['^libs/domain', '^node_modules/@types/node', DOMAIN_LIBRARIES], dependencyTypesNot: ['core'] },
    },
    {
      name: 'domain-no-io',
      comment: 'No file system, network or process access in the domain.',
      severity: 'error',
      from: { path: '^libs/domain' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|dns|child_process|worker_threads)$' },
    },
    {
      name: 'application-talks-to-ports',
      comment: 'Handlers use ports; adapters and the HTTP layer are outside.',
      severity: 'error',
      from: { path: '^libs/application' },
      to: { path: ['^libs/infrastructure', '^apps/', `node_modules/${DRIVERS.slice(1)}`] },
    },
    {
      name: 'core-knows-no-process-or-host',
      comment:
        'Process and host concerns (signals, exit, pid, host name, child processes) sit behind the ' +
        'ProcessHost port, implemented in apps/api: the core runs the same in any process or test.',
      severity: 'error',
      from: { path: '^libs/(application|domain)' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(process|os|child_process|cluster)$' },
    },
    {
      name: 'adapters-do-not-reach-out',
      comment: 'Adapters implement ports and nothing else: no HTTP layer, no domain rules of their own.',
      severity: 'error',
      from: { path: '^libs/infrastructure' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-dependency-internals',
      comment:
        'A package is imported by its name, through the entry point it documents: a file inside it ' +
        '(@nestjs/common/constants, @nestjs/core/helpers/..., class-validator/cjs/...) is its own ' +
        'business and changes without notice in any release.',
      severity: 'error',
      from: {},
      to: {
        path: `node_modules/${INTERNALS_OF}/`,
        pathNot: `node_modules/${INTERNALS_OF}/((dist|cjs)/)?index\\.js$`,
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(spec|e2e-spec|int-spec)\\.ts$|spec-helper\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
