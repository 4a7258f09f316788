// The conventional peer (bench/peer/, NestJS in TypeScript with decorators), started the way the
// other baselines are. swc, already a dev dependency, transpiles each .ts file as Node loads it
// (with the decorator metadata Nest's injection and ValidationPipe read), so the peer needs no
// build step and leaves no output behind.
const { transformFileSync } = require('@swc/core');

const options = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
require.extensions['.ts'] = (module, filename) => module._compile(transformFileSync(filename, options).code, filename);

require('../peer/main.ts');
