import { Controller, Get, HttpCode, HttpStatus, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-errors';
import { WithoutKey } from '../common/http/request-context';
import { requestOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { clearSignInCookie, isCrossSite, PENDING_COOKIE, requestCookie, SESSION_COOKIE, setSignInCookie } from './sign-in-cookies';
import { PENDING_SIGN_IN_SECONDS, SignedInSession, SignInRefusal, SsoService, UnmatchedCallback } from './sso.service';

/** The sign-in routes, outside /v1 (browser navigations, not the API): app.factory.ts excludes them from the prefix. */
export const SIGN_IN_ROUTES = ['auth/sign-in', 'auth/callback', 'auth/sign-out', 'auth/session'];

const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Sign-in to the Settings pages through the identity provider (issue 36): `GET /auth/sign-in` redirects to it,
 * `GET /auth/callback` comes back with a code and leaves a session cookie, `POST /auth/sign-out` ends the session on
 * every instance, `GET /auth/session` tells the pages who is signed in (and whether SSO is configured at all). Each
 * sign-in, refusal and sign-out is an audit event.
 */
@ApiExcludeController()
@WithoutKey()
@Controller('auth')
export class SignInController {
  constructor(
    private readonly sso: SsoService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get('sign-in')
  async signIn(@Query('returnTo') returnTo: unknown, @Res() response: Response): Promise<void> {
    try {
      const { pendingCookie, authorizationUrl } = await this.sso.begin(returnTo);
      setSignInCookie(response, PENDING_COOKIE, pendingCookie, PENDING_SIGN_IN_SECONDS);
      response.setHeader('Cache-Control', 'no-store');
      response.redirect(HttpStatus.FOUND, authorizationUrl);
    } catch (error) {
      this.refusalPage(response, error);
    }
  }

  @Get('callback')
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    clearSignInCookie(response, PENDING_COOKIE);
    response.setHeader('Cache-Control', 'no-store');
    try {
      const { sessionCookie, session, returnTo } = await this.sso.complete(requestCookie(request, PENDING_COOKIE), request);
      setSignInCookie(response, SESSION_COOKIE, sessionCookie, (session.endsAtMs - Date.now()) / 1000);
      await this.auditTrail.record(this.origin(request, session.organizationId, session), 'sign-in.succeeded', session.subject, {
        email: session.email,
        scopes: session.scopes,
      });
      response.redirect(HttpStatus.FOUND, returnTo);
    } catch (error) {
      if (error instanceof SignInRefusal && !(error instanceof UnmatchedCallback)) await this.recordRefusal(request, error);
      this.refusalPage(response, error);
    }
  }

  @Post('sign-out')
  @HttpCode(HttpStatus.OK)
  async signOut(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; data: { signedOut: boolean } }> {
    if (this.sso.settings && isCrossSite(request, this.sso.settings.publicOrigin)) {
      throw new ApiError(HttpStatus.FORBIDDEN, `Sign-out is accepted from the Settings pages at ${this.sso.settings.publicOrigin} only.`);
    }
    const cookie = requestCookie(request, SESSION_COOKIE);
    const session = cookie ? await this.sso.signOut(cookie) : undefined;
    clearSignInCookie(response, SESSION_COOKIE);
    if (session) await this.auditTrail.record(this.origin(request, session.organizationId, session), 'sign-out', session.subject);
    return { success: true, data: { signedOut: session !== undefined } };
  }

  @Get('session')
  async session(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<{ success: true; data: object }> {
    response.setHeader('Cache-Control', 'no-store');
    const cookie = requestCookie(request, SESSION_COOKIE);
    const session = cookie ? await this.sso.session(cookie) : undefined;
    const signedIn = session
      ? {
          email: session.email,
          subject: session.subject,
          organizationId: session.organizationId,
          scopes: session.scopes,
          endsAt: new Date(session.endsAtMs).toISOString(),
        }
      : null;
    return { success: true, data: { sso: this.sso.settings !== undefined, signedIn } };
  }

  private origin(request: Request, organizationId: string, who: Pick<SignedInSession, 'subject' | 'email'>) {
    return requestOrigin(request, organizationId, { kind: 'sso', subject: who.subject, email: who.email });
  }

  /**
   * A refused sign-in belongs to no organisation yet (or to none the person may enter): it is recorded for every
   * organisation the identity provider signs in to, whose administrators watch attempts on their pages. Only
   * callbacks of a sign-in started here come this far (UnmatchedCallback), and the provider's own words only as a
   * known code and a short readable description (providerRefusal).
   */
  private async recordRefusal(request: Request, refusal: SignInRefusal): Promise<void> {
    const organizations = new Set(this.sso.settings?.groupMappings.map((mapping) => mapping.organizationId) ?? []);
    const who = refusal.who ?? { subject: '', email: '' };
    for (const organizationId of organizations) {
      await this.auditTrail.record(this.origin(request, organizationId, who), 'sign-in.failed', who.subject, {
        reason: refusal.reason,
        ...refusal.providerError,
      });
    }
  }

  private refusalPage(response: Response, error: unknown): void {
    const refusal =
      error instanceof SignInRefusal ? error : new SignInRefusal(HttpStatus.INTERNAL_SERVER_ERROR, 'The sign-in failed. Try again.');
    response.status(refusal.status);
    response.setHeader('Content-Security-Policy', PAGE_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.type('text/html; charset=utf-8');
    response.send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in refused</title></head><body>` +
        `<h1>Sign-in refused</h1><p id="reason">${escapeHtml(refusal.reason)}</p>` +
        `<p><a href="/auth/sign-in">Sign in again</a></p></body></html>`,
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
