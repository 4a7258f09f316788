import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Eta } from 'eta';
// The reply's `view` and `viewAsync` (types only: NestJS's setViewEngine loads the plugin).
import type {} from '@fastify/view';
import { DASHBOARD_VIEWS_DIR } from './dashboard-files';

/**
 * The dashboard's template engine, NestJS's MVC set-up on Fastify (`setViewEngine`, which registers
 * @fastify/view): Eta templates from dashboard/views, every `<%= %>` escaped (Eta's `autoEscape`).
 *
 * @fastify/view adds an onRequest hook to every request (it sets `reply.locals`) unless the reply
 * already has a `locals` decorator: declaring one first keeps the API's requests free of it. The
 * templates read their data from the render call alone, never from `locals`.
 */
export function registerDashboardViews(app: NestFastifyApplication): void {
  const fastify = app.get(HttpAdapterHost).httpAdapter.getInstance<FastifyInstance>();
  if (!fastify.hasReplyDecorator('locals')) fastify.decorateReply('locals', null);
  app.setViewEngine({
    engine: { eta: new Eta({ autoEscape: true, autoTrim: false }) },
    templates: DASHBOARD_VIEWS_DIR,
    // Templates are compiled once and kept: they change only with a release.
    production: true,
  });
}
