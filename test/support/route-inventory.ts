import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../../apps/api/src/app.module';
import type { AppConfig } from '../../apps/api/src/config';

export type Audience = 'public' | 'operator' | 'api_key';

export interface RouteInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'ALL';
  /** Full path as Fastify sees it, with `:param` placeholders, e.g. `/v1/projects/:projectId/jobs`. */
  path: string;
  params: string[];
  audience: Audience;
  /** The operator role an operator route declared (http/auth.ts, `RequiresRole`); undefined when none. */
  requiredRole?: 'operator' | 'auditor';
  controller: string;
  handler: string;
}

/** Paths NestJS serves without the global `/v1` prefix (bootstrap.ts: setGlobalPrefix ... exclude). */
const UNPREFIXED = new Set(['health', 'ready', 'metrics', 'openapi.json', 'docs', 'docs/:asset']);
const unprefixed = (path: string) => UNPREFIXED.has(path) || /^(dashboard|console)(\/|$)/.test(path);
/** Metadata key of http/auth.ts's Public()/OperatorOnly() decorators. */
const AUDIENCE_METADATA = 'audience';
/** Metadata key of http/auth.ts's RequiresRole() decorator. */
const ROLE_METADATA = 'operator_role';

const METHOD_NAMES: Record<number, RouteInfo['method']> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.HEAD]: 'HEAD',
  [RequestMethod.OPTIONS]: 'OPTIONS',
  [RequestMethod.ALL]: 'ALL',
};

type ModuleRef =
  | (new (...args: never[]) => unknown)
  | { module: new (...args: never[]) => unknown; imports?: unknown[]; controllers?: unknown[] };

/**
 * Every HTTP route of the service, read from the controllers' own decorator metadata by walking
 * the composition root's module tree: a route added by any feature is in the list without anyone
 * updating a test table, so the security and fuzz suites cover it (or fail, asking for a fixture).
 *
 * `AppModule.forRoot` only describes modules (its factories run when Nest instantiates them), so
 * the config it is given is never used to open anything.
 */
export function routeInventory(): RouteInfo[] {
  const config = { dataDir: '/nonexistent' } as unknown as AppConfig;
  const root = AppModule.forRoot(config) as ModuleRef;
  const seenModules = new Set<unknown>();
  const controllers = new Set<new (...args: never[]) => unknown>();

  const visit = (ref: unknown) => {
    if (!ref) return;
    if (ref instanceof Promise) return; // async dynamic modules: none today; they would need awaiting
    const dynamic =
      typeof ref === 'object' ? (ref as { module?: unknown; imports?: unknown[]; controllers?: unknown[] }) : null;
    const moduleClass = (dynamic ? dynamic.module : ref) as object;
    const key = dynamic ?? moduleClass;
    if (seenModules.has(key)) return;
    seenModules.add(key);
    const own = (name: string) => (Reflect.getMetadata(name, moduleClass) as unknown[] | undefined) ?? [];
    for (const c of [...own(MODULE_METADATA.CONTROLLERS), ...(dynamic?.controllers ?? [])]) controllers.add(c as never);
    for (const i of [...own(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(i);
  };
  visit(root);

  const routes: RouteInfo[] = [];
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const classAudience = Reflect.getMetadata(AUDIENCE_METADATA, controller) as Audience | undefined;
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const handler = proto[name];
      if (typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as number | undefined;
      const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (method === undefined || sub === undefined) continue;
      const segments = [base, sub]
        .map((s) => s.replace(/^\/+|\/+$/g, ''))
        .filter(Boolean)
        .join('/');
      const prefixed = unprefixed(segments) ? `/${segments}` : `/v1/${segments}`;
      const audience =
        (Reflect.getMetadata(AUDIENCE_METADATA, handler) as Audience | undefined) ?? classAudience ?? 'api_key';
      routes.push({
        method: METHOD_NAMES[method],
        path: prefixed,
        params: [...prefixed.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
        audience,
        requiredRole:
          (Reflect.getMetadata(ROLE_METADATA, handler) as RouteInfo['requiredRole']) ??
          (Reflect.getMetadata(ROLE_METADATA, controller) as RouteInfo['requiredRole']),
        controller: controller.name,
        handler: name,
      });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Methods that change state: refused to read_only keys (docs/api.md, Authentication). */
export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/v1/projects/:projectId/jobs/:jobId` with the values given for each parameter. */
export function fillPath(route: Pick<RouteInfo, 'path'>, values: Record<string, string>): string {
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} in ${route.path}`);
    return encodeURIComponent(value);
  });
}
