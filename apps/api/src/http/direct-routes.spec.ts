import {
  ArgumentsHost,
  CallHandler,
  CanActivate,
  Catch,
  Controller,
  ExceptionFilter,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NestInterceptor,
  Param,
  PipeTransform,
  Provider,
  Req,
  UseGuards,
} from '@nestjs/common';
import { APP_INTERCEPTOR, DiscoveryModule, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tap } from 'rxjs';
import { directRouting, httpPolicyProviders, servedDirectly } from './direct-routes';

/** Refuses a request carrying `x-refuse` (NestJS then answers 403 "Forbidden resource"). */
@Injectable()
class TestGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    return context.switchToHttp().getRequest<FastifyRequest>().headers['x-refuse'] === undefined;
  }
}

/** Upper-cases every route parameter: shows the pipe ran. */
@Injectable()
class TestPipe implements PipeTransform {
  transform(value: unknown, metadata: { type: string }) {
    return metadata.type === 'param' && typeof value === 'string' ? value.toUpperCase() : value;
  }
}

@Catch()
class TestFilter implements ExceptionFilter {
  catch(exception: { message?: string; getStatus?: () => number }, host: ArgumentsHost) {
    const status = exception.getStatus?.() ?? 500;
    void host.switchToHttp().getResponse<FastifyReply>().status(status).send({ filtered: exception.message });
  }
}

@Injectable()
class TestInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    return next
      .handle()
      .pipe(tap(() => void context.switchToHttp().getResponse<FastifyReply>().header('x-intercepted', 'yes')));
  }
}

/** A guard of one route's own. */
@Injectable()
class OwnGuard implements CanActivate {
  canActivate() {
    return true;
  }
}

@Controller('things')
class ThingsController {
  @Get(':id')
  get(@Param('id') id: string) {
    return { id };
  }

  @Get(':id/raw')
  raw(@Req() request: FastifyRequest) {
    return { url: request.url };
  }

  @Get(':id/guarded')
  @UseGuards(OwnGuard)
  guarded(@Param('id') id: string) {
    return { id };
  }
}

const POLICIES = httpPolicyProviders(TestGuard, TestPipe, TestFilter);

async function start(providers: Provider[]): Promise<NestFastifyApplication> {
  @Module({ imports: [DiscoveryModule], controllers: [ThingsController], providers })
  class TestModule {}
  const app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false });
  const policies = { guard: app.get(TestGuard), pipe: app.get(TestPipe), filter: app.get(TestFilter) };
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', directRouting(app, 'v1', policies).onRoute);
  app.setGlobalPrefix('v1');
  await app.init();
  return app;
}

describe('directRouting', () => {
  let app: NestFastifyApplication;
  afterEach(() => app?.close());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.json(), intercepted: res.headers['x-intercepted'] };
  };

  it('serves a route with the global guard, pipe and filter directly, applying each of them', async () => {
    app = await start(POLICIES);
    expect(servedDirectly(app)).toEqual(['GET /v1/things/:id']);
    expect(await get('/v1/things/abc')).toEqual({ status: 200, body: { id: 'ABC' }, intercepted: undefined });
    expect(await get('/v1/things/abc', { 'x-refuse': '1' })).toEqual({
      status: 403,
      body: { filtered: 'Forbidden resource' },
      intercepted: undefined,
    });
  });

  it('leaves routes with the raw request or a guard of their own on NestJS router', async () => {
    app = await start(POLICIES);
    expect(servedDirectly(app)).not.toContain('GET /v1/things/:id/raw');
    expect(servedDirectly(app)).not.toContain('GET /v1/things/:id/guarded');
    expect((await get('/v1/things/abc/raw')).body).toEqual({ url: '/v1/things/abc/raw' });
  });

  it('serves nothing directly when the application has a global enhancer it would not apply', async () => {
    app = await start([...POLICIES, TestInterceptor, { provide: APP_INTERCEPTOR, useExisting: TestInterceptor }]);
    expect(servedDirectly(app)).toEqual([]);
    expect(await get('/v1/things/abc')).toEqual({ status: 200, body: { id: 'ABC' }, intercepted: 'yes' });
  });
});
