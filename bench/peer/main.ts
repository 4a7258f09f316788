/**
 * The conventional peer of the benchmark: the service's three project routes written the way a
 * NestJS developer writes them in an afternoon (NestJS on Fastify, an API-key guard, the
 * ValidationPipe with a class-validator DTO, one SQLite table of JSON documents, an fsync per
 * create). `npm run bench` measures the service against it (bench/baselines/nest-peer.js starts
 * it). Like a new Nest application it logs no line per request. PORT, DB_FILE, API_KEYS_FILE.
 */
import { Module, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyGuard } from './api-key.guard';
import { DATABASE, openDatabase } from './database';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [{ provide: DATABASE, useFactory: openDatabase }, ApiKeyGuard, ProjectsService],
})
class AppModule {}

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
}

void bootstrap();
