import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { digestOf, IMMUTABLE, REVALIDATE, StaticFile, staticFile } from './static-file';

/**
 * Swagger UI at /docs, from the installed `swagger-ui-dist` package (a dependency of
 * @nestjs/swagger): the page, our initializer and a fixed list of the package's files, read once
 * per process and kept in memory. No static-file plugin, no directory served.
 */

export const DOCS_PATH = '/docs';
export const DOCUMENT_PATH = '/openapi.json';

/** The files of swagger-ui-dist the page uses, by the name they are served under. */
const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
const INITIALIZER = 'swagger-initializer.js';

/**
 * Our own initializer instead of the package's (which points at the petstore), as a file so the
 * page needs no inline script (see PAGE_SECURITY_HEADERS).
 */
const initializer = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(DOCUMENT_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    displayRequestDuration: true,
    persistAuthorization: false,
  });
});
`;

const page = (url: (name: string) => string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Workspace Operations API reference</title>
    <link rel="stylesheet" href="${url('swagger-ui.css')}">
    <link rel="stylesheet" href="${url('index.css')}">
    <link rel="icon" type="image/png" href="${url('favicon-32x32.png')}" sizes="32x32">
    <link rel="icon" type="image/png" href="${url('favicon-16x16.png')}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <noscript>The API reference needs JavaScript; the OpenAPI document itself is at <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
    <script src="${url('swagger-ui-bundle.js')}"></script>
    <script src="${url(INITIALIZER)}"></script>
  </body>
</html>
`;

/**
 * Headers of the page: scripts and styles only from here (Swagger UI sets some styles inline),
 * requests ("Try it out") only to this origin, never framed.
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface SwaggerUi {
  page: StaticFile;
  assets: Map<string, StaticFile>;
}

function swaggerUiDistDir(): string {
  // Resolved from @nestjs/swagger, whose dependency it is, wherever npm placed it.
  const swagger = dirname(require.resolve('@nestjs/swagger/package.json'));
  return dirname(require.resolve('swagger-ui-dist/package.json', { paths: [swagger] }));
}

async function load(): Promise<SwaggerUi> {
  const dir = swaggerUiDistDir();
  const assets = new Map<string, StaticFile>();
  await Promise.all(
    Object.entries(PACKAGE_ASSETS).map(async ([name, type]) => {
      assets.set(name, staticFile(await readFile(join(dir, name)), type, IMMUTABLE));
    }),
  );
  assets.set(INITIALIZER, staticFile(initializer, 'text/javascript; charset=utf-8', IMMUTABLE));
  const versioned = (name: string) => `${DOCS_PATH}/${name}?v=${digestOf(assets.get(name)!.body)}`;
  return { page: staticFile(page(versioned), 'text/html; charset=utf-8', REVALIDATE), assets };
}

let loaded: Promise<SwaggerUi> | undefined;

/** The page and its assets, read on first use and shared by every application in the process. */
export function swaggerUi(): Promise<SwaggerUi> {
  loaded ??= load().catch((error) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
