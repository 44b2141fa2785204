import type { NextFunction, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the Settings > API keys page is served: outside /v1, like the operational routes. */
export const SETTINGS_PAGE_PATH = '/settings/api-keys';

const ASSETS_DIR = resolve(__dirname, '../../web/settings-api-keys');

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
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
};

/**
 * Serves the Settings > API keys page (web/settings-api-keys, read once at start-up) at SETTINGS_PAGE_PATH,
 * with a strict Content-Security-Policy. The page holds no data: everything it shows it asks /v1 for with
 * the admin key the user signs in with.
 */
export function settingsPage(): (request: Request, response: Response, next: NextFunction) => void {
  const assets = new Map(
    Object.entries(FILES).map(([path, { file, type }]) => [path, { body: readFileSync(join(ASSETS_DIR, file)), type }]),
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
