import type { NextFunction, Request, Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the Settings > API keys page is served: outside /v1, like the operational routes. */
export const SETTINGS_PAGE_PATH = '/settings/api-keys';
/** Where the Settings > Audit log page is served. */
export const AUDIT_LOG_PAGE_PATH = '/settings/audit-log';

/** The Settings pages: where each is served, and its folder under web/ (the audit log uses the API keys page's stylesheet and icon). */
export const SETTINGS_PAGES = [
  { path: SETTINGS_PAGE_PATH, folder: 'settings-api-keys' },
  { path: AUDIT_LOG_PAGE_PATH, folder: 'settings-audit-log' },
] as const;

const WEB_DIR = resolve(__dirname, '../../web');

/** The page's only sources are its own files: no inline code, no other origin, no framing, no forms elsewhere. */
export const SETTINGS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  // The pages' shared sign-in (the API keys page's folder holds it, as it holds the shared stylesheet).
  '/sign-in.js': { file: 'sign-in.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
};

/**
 * Serves a Settings page (its folder under web/, read once at start-up: the files of FILES it has) with a strict
 * Content-Security-Policy; mounted at each path of SETTINGS_PAGES. The pages hold no data: everything they show
 * they ask /v1 for, signed in through the identity provider (a session cookie) or with an admin key.
 */
export function settingsPage(folder: string): (request: Request, response: Response, next: NextFunction) => void {
  const dir = join(WEB_DIR, folder);
  const assets = new Map(
    Object.entries(FILES)
      .filter(([, { file }]) => existsSync(join(dir, file)))
      .map(([path, { file, type }]) => [path, { body: readFileSync(join(dir, file)), type }]),
  );
  return (request, response, next) => {
    const asset = assets.get(request.path === '' ? '/' : request.path);
    if (!asset || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    response.setHeader('Content-Security-Policy', SETTINGS_PAGE_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Frame-Options', 'DENY');
    response.setHeader('Cache-Control', 'no-cache');
    response.type(asset.type).send(asset.body);
  };
}
