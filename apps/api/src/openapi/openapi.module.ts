import { Controller, Get, Injectable, INestApplication, Module, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '@app/domain';
import { HttpProblem } from '../http/errors';
import { Public } from '../http/auth';
import { createOpenApiDocument } from './openapi-document';
import { notModified, REVALIDATE, StaticFile, staticFile } from './static-file';
import { PAGE_SECURITY_HEADERS, swaggerUi } from './swagger-ui';

/**
 * The application's OpenAPI document. @nestjs/swagger reads it from the initialised application
 * (modules, routes, global prefix), so the bootstrap hands the application over once it is
 * initialised (`publishOpenApi`); the document is generated on first request and kept.
 */
@Injectable()
export class OpenApiDocument {
  private app?: INestApplication;
  private file?: StaticFile;

  publish(app: INestApplication) {
    this.app = app;
    this.file = undefined;
  }

  /** The document as served: JSON bytes with their ETag. */
  get(): StaticFile {
    if (!this.app) throw new HttpProblem(503, 'The OpenAPI document is not available yet');
    this.file ??= staticFile(
      JSON.stringify(createOpenApiDocument(this.app)),
      'application/json; charset=utf-8',
      REVALIDATE,
    );
    return this.file;
  }
}

/** Hands the initialised application to the OpenAPI module (bootstrap.ts, right after `init()`). */
export function publishOpenApi(app: INestApplication) {
  app.get(OpenApiDocument).publish(app);
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, headers: Record<string, string> = {}) {
  void reply.headers({ ...headers, etag: file.etag, 'cache-control': file.cacheControl });
  if (notModified(request.headers['if-none-match'], file.etag)) return void reply.code(304).send();
  void reply.type(file.contentType).send(file.body);
}

/**
 * GET /openapi.json (the document) and GET /docs (Swagger UI and its files). Public, outside the
 * /v1 prefix like /health, and left out of the document itself.
 */
@ApiExcludeController()
@Public()
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  openApi(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    send(request, reply, this.document.get(), { 'x-content-type-options': 'nosniff' });
  }

  @Get('docs')
  async docs(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    send(request, reply, (await swaggerUi()).page, PAGE_SECURITY_HEADERS);
  }

  @Get('docs/:asset')
  async asset(@Param('asset') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const file = (await swaggerUi()).assets.get(name);
    if (!file) throw notFound(`Route GET /docs/${name.slice(0, 100)} not found`);
    send(request, reply, file, { 'x-content-type-options': 'nosniff' });
  }
}

@Module({ controllers: [OpenApiController], providers: [OpenApiDocument] })
export class OpenApiModule {}
