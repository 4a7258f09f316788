import { Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '@app/domain';
import { Public } from '../http/auth';
import { notModified } from '../openapi/static-file';
import { DashboardExceptionFilter } from './dashboard-exception.filter';
import { dashboardAssets } from './dashboard-files';
import { crossSite, DASHBOARD_SECURITY_HEADERS, seeOther, sessionCookie, sessionCookieOf } from './dashboard-http';
import { DashboardPages, field } from './dashboard-pages';
import { CSRF_REFUSED, DashboardProblem, LINK_REFUSED } from './dashboard-problem';
import { layoutData } from './dashboard-view-data';

/**
 * The workspace dashboard's way in and out (docs/dashboard.md): the home page, its assets, the
 * sign-in link's page, signing in and out, and the page for any unknown path. Signed in by a
 * member's session cookie only: API keys and the operator token mean nothing here, and the cookie
 * means nothing to /v1 (whose guard reads the bearer credential alone).
 */
@ApiExcludeController()
@Public()
@UseFilters(DashboardExceptionFilter)
@Controller('dashboard')
export class DashboardAccessController {
  constructor(private readonly pages: DashboardPages) {}

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const signedIn = await this.pages.access.resume(sessionCookieOf(request));
    if (signedIn) return seeOther(reply, '/dashboard/api-keys');
    await this.pages.page(reply, 200, 'signed-out', {
      ...layoutData('Workspace dashboard', undefined),
      title: 'Workspace dashboard',
      message: 'You are not signed in.',
    });
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const file = dashboardAssets().files.get(name);
    if (!file) throw notFound('No such file');
    void reply.headers({ ...DASHBOARD_SECURITY_HEADERS, etag: file.etag, 'cache-control': file.cacheControl });
    if (notModified(request.headers['if-none-match'], file.etag)) return void reply.code(304).send();
    void reply.type(file.contentType).send(file.body);
  }

  /** The link's page: a GET only shows a button, so link previewers that fetch it do not use it up. */
  @Get('sign-in')
  async signInPage(@Query('token') token: unknown, @Res() reply: FastifyReply) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) throw LINK_REFUSED();
    await this.pages.page(reply, 200, 'sign-in', { ...layoutData('Sign in', undefined), token });
  }

  @Post('sign-in')
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (crossSite(request)) throw CSRF_REFUSED();
    const signedIn = await this.pages.access.signIn(field(request.body, 'token'));
    if (!signedIn) throw LINK_REFUSED();
    // A session this browser already had ends: its cookie is replaced, and it must not live on unseen.
    await this.pages.access.signOut(sessionCookieOf(request));
    const maxAge = Math.floor(this.pages.settings.absoluteTimeoutMs / 1000);
    void reply.header('set-cookie', sessionCookie(request, signedIn.sessionId, maxAge));
    seeOther(reply, '/dashboard/api-keys');
  }

  @Post('sign-out')
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.pages.signedIn(request, { form: true });
    await this.pages.access.signOut(sessionCookieOf(request));
    void reply.header('set-cookie', sessionCookie(request, '', 0));
    request.dashboard = undefined;
    await this.pages.page(reply, 200, 'signed-out', {
      ...layoutData('Signed out', undefined),
      title: 'Signed out',
      message: 'You have signed out of the dashboard.',
    });
  }

  /** Any other page under /dashboard: a page saying so, rather than the API's JSON. */
  @Get('*')
  async unknownPage(@Req() request: FastifyRequest) {
    const signedIn = await this.pages.access.resume(sessionCookieOf(request));
    if (signedIn) await this.pages.signedIn(request, {});
    throw new DashboardProblem(404, 'Page not found', 'There is no such page in the dashboard.');
  }
}
