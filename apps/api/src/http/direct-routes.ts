import {
  ArgumentMetadata,
  CanActivate,
  ExceptionFilter,
  ForbiddenException,
  Logger,
  PipeTransform,
  Provider,
  RequestMethod,
  Type,
} from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
  VERSION_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryService, HttpAdapterHost, MetadataScanner } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isObservable, lastValueFrom } from 'rxjs';

/**
 * The application's HTTP policies, as NestJS applies them to every route (app.module.ts registers
 * them as APP_GUARD, APP_PIPE and APP_FILTER): the direct routes apply the same instances.
 */
export interface HttpPolicies {
  guard: CanActivate;
  pipe: PipeTransform;
  filter: ExceptionFilter;
}

/**
 * The three policies as application-wide providers: one instance of each, which NestJS applies
 * to the routes it serves (`APP_GUARD`, `APP_PIPE`, `APP_FILTER` with `useExisting`) and the
 * direct routes to theirs (`app.get` of the class).
 */
export function httpPolicyProviders(
  guard: Type<CanActivate>,
  pipe: Type<PipeTransform>,
  filter: Type<ExceptionFilter>,
): Provider[] {
  return [
    guard,
    pipe,
    filter,
    { provide: APP_GUARD, useExisting: guard },
    { provide: APP_PIPE, useExisting: pipe },
    { provide: APP_FILTER, useExisting: filter },
  ];
}

/** One argument of a route handler: where its value comes from, and what the pipe is told about it. */
interface Argument {
  index: number;
  extract: (request: FastifyRequest, context: ExecutionContextHost) => unknown;
  metadata: ArgumentMetadata;
  /** Passed through the global pipe, as NestJS does for every kind but headers. */
  piped: boolean;
}

/** A route served directly: its method, its full path, and the handler that replaces NestJS's. */
interface DirectRoute {
  method: string;
  url: string;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** Everything NestJS's router would look up for a route per request, looked up once. */
interface RoutePlan {
  controller: Type<unknown>;
  instance: object;
  callback: (...args: unknown[]) => unknown;
  args: readonly Argument[];
  status: number;
  headers: readonly { name: string; value: string }[];
}

/** The Fastify adapter's way of sending a handler's result (StreamableFile included). */
interface ReplySender {
  reply(response: unknown, body: unknown, statusCode?: number): unknown;
}

type CustomFactory = (data: unknown, context: ExecutionContextHost) => unknown;

/** Enhancers of a controller or a route of its own: a route under any of them stays on NestJS's router. */
const ENHANCERS = [GUARDS_METADATA, PIPES_METADATA, INTERCEPTORS_METADATA, EXCEPTION_FILTERS_METADATA];
/** What NestJS acts on that the direct path does not, on a route: it stays on NestJS's router. */
const UNSUPPORTED_ON_HANDLER = [...ENHANCERS, REDIRECT_METADATA, RENDER_METADATA, SSE_METADATA, VERSION_METADATA];

/** What NestJS's guards consumer answers when a guard returns false. */
const FORBIDDEN = 'Forbidden resource';

const REQUEST_METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

/**
 * Controller routes served without NestJS's per-request router (docs/decisions.md, "Routes served
 * directly"). NestJS still discovers the controllers, registers their routes with Fastify and
 * documents them (OpenAPI); for each route whose parameters and enhancers are the ones this
 * service uses, an `onRoute` hook swaps NestJS's handler for one that does the same steps in the
 * same order, on data looked up once at start:
 *
 * 1. a route parameter that is empty answers 404 (what the Fastify adapter's wrapper does);
 * 2. the global guard (`AuthGuard`), with the same execution context (class and handler);
 * 3. the status code (`@HttpCode`, else 201 for POST and 200 otherwise) and `@Header`s;
 * 4. the arguments: `@Body`, `@Param`, `@Query`, `@Headers` (with or without a key) and custom
 *    decorators (`@Caller`, `@Ctx`, `@IfMatch`), each through the global pipe as NestJS passes it;
 * 5. the controller method, its result (promise or observable) sent through the adapter's `reply`;
 * 6. any error on the way handed to the global exception filter (`AllExceptionsFilter`).
 *
 * NestJS's router does this through a chain of promises, an execution context per step and a
 * handler wrapper per layer: a third of the CPU of a `GET /v1/projects/{id}` here. A route with
 * anything else (its own guards, pipes, interceptors or filters, `@Req`/`@Res`, redirects,
 * templates, SSE, versions, request-scoped providers) keeps NestJS's router, as does any route
 * whose path this does not recognise: the fallback is always NestJS's own behaviour.
 */
export function directRouting(app: NestFastifyApplication, globalPrefix: string, policies: HttpPolicies) {
  const routes = directRoutes(app, globalPrefix, policies);
  const byKey = new Map(routes.map((route) => [routeKey(route.method, route.url), route]));
  const served: string[] = [];
  servedByApp.set(app, served);
  return {
    /** Fastify's `onRoute` hook (registered in http/pipeline.ts): runs as NestJS registers each route. */
    onRoute(options: RouteOptions) {
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      if (methods.length !== 1) return;
      const key = routeKey(methods[0], options.url);
      const route = byKey.get(key);
      if (!route) return;
      options.handler = route.handler;
      served.push(key);
    },
  };
}

const servedByApp = new WeakMap<object, readonly string[]>();

/** The routes (`METHOD /path`) of an application that are served directly, once it is initialised. */
export function servedDirectly(app: object): readonly string[] {
  return servedByApp.get(app) ?? [];
}

/** The direct handlers of the application's controllers (the routes NestJS would serve the same way). */
function directRoutes(app: NestFastifyApplication, globalPrefix: string, policies: HttpPolicies): DirectRoute[] {
  const discovery = app.get(DiscoveryService);
  const unknown = unknownGlobalEnhancers(discovery, policies);
  if (unknown.length > 0) {
    // Served directly, these routes would skip them: every route stays on NestJS's router.
    new Logger('DirectRoutes').warn(
      `Every route served by NestJS's router: global ${unknown.join(', ')} not applied by http/direct-routes.ts`,
    );
    return [];
  }
  const scanner = app.get(MetadataScanner);
  const adapter = app.get(HttpAdapterHost).httpAdapter;
  const routes: DirectRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype || !wrapper.isDependencyTreeStatic()) continue;
    const controller = metatype as Type<unknown>;
    if (ENHANCERS.some((key) => hasMetadata(key, controller))) continue;
    const controllerPath = Reflect.getMetadata(PATH_METADATA, controller);
    if (typeof controllerPath !== 'string') continue;
    const prototype = Object.getPrototypeOf(instance);
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const callback = prototype[methodName] as (...args: unknown[]) => unknown;
      const path = Reflect.getMetadata(PATH_METADATA, callback);
      const method = REQUEST_METHODS[Reflect.getMetadata(METHOD_METADATA, callback) as RequestMethod];
      if (typeof path !== 'string' || !method) continue;
      if (UNSUPPORTED_ON_HANDLER.some((key) => hasMetadata(key, callback))) continue;
      const args = argumentsOf(controller, methodName);
      if (!args) continue;
      const plan: RoutePlan = {
        controller,
        instance,
        callback,
        args,
        status: Reflect.getMetadata(HTTP_CODE_METADATA, callback) ?? (method === 'POST' ? 201 : 200),
        headers: Reflect.getMetadata(HEADERS_METADATA, callback) ?? [],
      };
      routes.push({
        method,
        url: joinPath(globalPrefix, controllerPath, path),
        handler: directHandler(plan, policies, adapter),
      });
    }
  }
  return routes;
}

/** NestJS's router's steps for one route, in its order (see `directRouting`). */
function directHandler(plan: RoutePlan, policies: HttpPolicies, sender: ReplySender): DirectRoute['handler'] {
  const { controller, instance, callback, args, status, headers } = plan;
  const serve = async (request: FastifyRequest, reply: FastifyReply, context: ExecutionContextHost) => {
    const allowed = policies.guard.canActivate(context);
    if (!(typeof allowed === 'boolean' ? allowed : await settle(allowed))) throw new ForbiddenException(FORBIDDEN);
    void reply.code(status);
    for (const { name, value } of headers) void reply.header(name, value);
    const values: unknown[] = [];
    for (const arg of args) {
      const value = arg.extract(request, context);
      const piped = arg.piped ? policies.pipe.transform(value, arg.metadata) : value;
      values[arg.index] = isPromise(piped) ? await piped : piped;
    }
    let result = callback.apply(instance, values);
    if (isPromise(result)) result = await result;
    if (isObservable(result)) result = await lastValueFrom(result);
    // A deadline or an idempotent replay may have answered already (http/pipeline.ts).
    if (reply.sent) return reply;
    return sender.reply(reply, result, status);
  };
  return async (request, reply) => {
    if (hasEmptyParam(request.params)) return reply.callNotFound();
    const context = new ExecutionContextHost([request, reply, undefined], controller, callback);
    try {
      return await serve(request, reply, context);
    } catch (error) {
      policies.filter.catch(error, context);
      return reply;
    }
  };
}

/**
 * The application-wide enhancers (`APP_GUARD`, `APP_PIPE`, `APP_FILTER`, `APP_INTERCEPTOR`
 * providers) other than the three policies the direct routes apply. The service registers no
 * others, and no `useGlobal*` ones (bootstrap.ts); one added later turns direct routing off.
 */
function unknownGlobalEnhancers(discovery: DiscoveryService, policies: HttpPolicies): string[] {
  const known = new Map<string, unknown>([
    ['APP_GUARD', policies.guard],
    ['APP_PIPE', policies.pipe],
    ['APP_FILTER', policies.filter],
  ]);
  const unknown: string[] = [];
  for (const wrapper of discovery.getProviders()) {
    const kind = /^(APP_GUARD|APP_PIPE|APP_FILTER|APP_INTERCEPTOR) /.exec(String(wrapper.token))?.[1];
    if (kind && known.get(kind) !== wrapper.instance)
      unknown.push(`${kind} ${wrapper.instance?.constructor?.name ?? '?'}`);
  }
  return unknown;
}

/**
 * Each argument of the handler, as NestJS's router resolves it, or undefined when one is of a
 * kind only NestJS's router handles (`@Req`, `@Res`, `@Next`, `@Ip`, files, sessions, or pipes
 * of its own).
 */
function argumentsOf(controller: Type<unknown>, methodName: string): Argument[] | undefined {
  const declared: Record<string, { index: number; data?: unknown; pipes?: unknown[]; factory?: CustomFactory }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {};
  const paramtypes: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ?? [];
  const args: Argument[] = [];
  for (const [key, { index, data, pipes, factory }] of Object.entries(declared)) {
    if (pipes && pipes.length > 0) return undefined;
    const metatype = paramtypes[index] as Type<unknown> | undefined;
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
      if (typeof factory !== 'function') return undefined;
      const metadata: ArgumentMetadata = { type: 'custom', metatype, data: data as string | undefined };
      args.push({ index, extract: (_request, context) => factory(data, context), metadata, piped: true });
      continue;
    }
    const type = Number(key.split(':')[0]);
    const extract = extractorOf(type, data);
    if (!extract) return undefined;
    const metadata: ArgumentMetadata = {
      type: PIPE_TYPES[type] ?? 'custom',
      metatype,
      data: data as string | undefined,
    };
    // NestJS pipes bodies, parameters, queries and custom arguments; headers reach the handler as they are.
    args.push({ index, extract, metadata, piped: type !== RouteParamtypes.HEADERS });
  }
  return args.sort((a, b) => a.index - b.index);
}

const PIPE_TYPES: Partial<Record<number, ArgumentMetadata['type']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.PARAM]: 'param',
  [RouteParamtypes.QUERY]: 'query',
};

/** NestJS's RouteParamsFactory, for the kinds of argument the direct path takes. */
function extractorOf(type: number, data: unknown): Argument['extract'] | undefined {
  const key = typeof data === 'string' ? data : undefined;
  if (data !== undefined && key === undefined) return undefined;
  switch (type) {
    case RouteParamtypes.BODY:
      return key ? (request) => bodyProperty(request.body, key) : (request) => request.body;
    case RouteParamtypes.PARAM:
      return key ? (request) => (request.params as Record<string, unknown>)[key] : (request) => request.params;
    case RouteParamtypes.QUERY:
      return key ? (request) => (request.query as Record<string, unknown>)[key] : (request) => request.query;
    case RouteParamtypes.HEADERS: {
      const name = key?.toLowerCase();
      return name ? (request) => request.headers[name] : (request) => request.headers;
    }
    default:
      return undefined;
  }
}

/** `@Body('key')` as NestJS reads it: a property of an object body, only an own one of anything else. */
function bodyProperty(body: unknown, key: string): unknown {
  if (body === null || body === undefined) return body;
  if (typeof body === 'object' && !Array.isArray(body) && !ArrayBuffer.isView(body))
    return (body as Record<string, unknown>)[key];
  return Object.prototype.hasOwnProperty.call(Object(body), key) ? (body as Record<string, unknown>)[key] : undefined;
}

function hasEmptyParam(params: unknown): boolean {
  for (const name in params as Record<string, unknown>) {
    if ((params as Record<string, unknown>)[name] === '' && name !== '*') return true;
  }
  return false;
}

function hasMetadata(key: string, target: object): boolean {
  const value = Reflect.getMetadata(key, target);
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

async function settle(value: unknown): Promise<boolean> {
  return Boolean(isObservable(value) ? await lastValueFrom(value) : await value);
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === 'function';
}

/** `/v1/projects/:projectId` from `v1`, `projects` and `:projectId` (NestJS's way of joining them). */
function joinPath(...parts: string[]): string {
  const path = parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment.length > 0)
    .join('/');
  return `/${path}`;
}

const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url}`;
