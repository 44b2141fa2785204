import type { NextFunction, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the Settings area is served: outside /v1, like the operational routes. */
export const SETTINGS_ROOT = '/settings';

/**
 * The Settings pages, in the navigation's order: the one list the routes, the navigation and each page's title come
 * from. A page is its folder under web/ (content.html, the page's part of the shared page.html, and app.js); adding
 * one (Cost categories, Budgets…) is a line here and a folder.
 */
export const SETTINGS_PAGES = [
  { path: `${SETTINGS_ROOT}/api-keys`, folder: 'settings-api-keys', title: 'API keys' },
  { path: `${SETTINGS_ROOT}/currency`, folder: 'settings-currency', title: 'Currency and rates' },
  { path: `${SETTINGS_ROOT}/tag-keys`, folder: 'settings-tag-keys', title: 'Tag keys' },
  { path: `${SETTINGS_ROOT}/cost-categories`, folder: 'settings-cost-categories', title: 'Cost categories' },
  { path: `${SETTINGS_ROOT}/budgets`, folder: 'settings-budgets', title: 'Budgets' },
  { path: `${SETTINGS_ROOT}/sources`, folder: 'settings-sources', title: 'Data sources' },
  { path: `${SETTINGS_ROOT}/audit-log`, folder: 'settings-audit-log', title: 'Audit log' },
] as const;

/** The files every page shares (the page shell, stylesheet, sign-in, page logic, icon), served once from here. */
export const SETTINGS_SHARED = { path: `${SETTINGS_ROOT}/shared`, folder: 'settings-shared' } as const;

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

const HTML = 'text/html; charset=utf-8';
const JAVASCRIPT = 'text/javascript; charset=utf-8';
const SHARED_FILES: Record<string, string> = {
  'settings.css': 'text/css; charset=utf-8',
  'sign-in.js': JAVASCRIPT,
  'page.js': JAVASCRIPT,
  'icon.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The navigation: a link per page of SETTINGS_PAGES, the current one marked. */
function navigation(current: string): string {
  return SETTINGS_PAGES.map(({ path, title }) => {
    const mark = path === current ? ' aria-current="page"' : '';
    return `<li><a href="${path}"${mark}>${escapeHtml(title)}</a></li>`;
  }).join('');
}

/** Fills every {{slot}} of the shell; a slot missing from the shell is a start-up error, not a page without it. */
function fill(shell: string, slots: Record<string, string>): string {
  return Object.entries(slots).reduce((html, [slot, value]) => {
    const marker = `{{${slot}}}`;
    if (!html.includes(marker)) throw new Error(`web/${SETTINGS_SHARED.folder}/page.html has no ${marker}`);
    return html.split(marker).join(value);
  }, shell);
}

/** Every file of the Settings area by its path under SETTINGS_ROOT, read and rendered once at start-up. */
function settingsAssets(): Map<string, Asset> {
  const read = (folder: string, file: string) => readFileSync(join(WEB_DIR, folder, file));
  const shell = read(SETTINGS_SHARED.folder, 'page.html').toString('utf8');
  const assets = new Map<string, Asset>();
  const under = (path: string) => path.slice(SETTINGS_ROOT.length);
  for (const [file, type] of Object.entries(SHARED_FILES)) {
    assets.set(`${under(SETTINGS_SHARED.path)}/${file}`, { body: read(SETTINGS_SHARED.folder, file), type });
  }
  for (const page of SETTINGS_PAGES) {
    const html = fill(shell, {
      title: escapeHtml(page.title),
      navigation: navigation(page.path),
      content: read(page.folder, 'content.html').toString('utf8'),
      script: `${page.path}/app.js`,
      shared: SETTINGS_SHARED.path,
      root: SETTINGS_ROOT,
    });
    const document = { body: Buffer.from(html), type: HTML };
    assets.set(under(page.path), document);
    assets.set(`${under(page.path)}/`, document);
    assets.set(`${under(page.path)}/app.js`, { body: read(page.folder, 'app.js'), type: JAVASCRIPT });
  }
  return assets;
}

/**
 * Serves the Settings area, mounted at SETTINGS_ROOT: each page of SETTINGS_PAGES (the shared shell with the page's
 * title, navigation and content) and its script, the shared files, and the area itself as a redirect to its first
 * page; all with a strict Content-Security-Policy. The pages hold no data: everything they show they ask /v1 for,
 * signed in through the identity provider (a session cookie) or with an admin key.
 */
export function settingsArea(): (request: Request, response: Response, next: NextFunction) => void {
  const assets = settingsAssets();
  return (request, response, next) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (request.path === '/' || request.path === '') return response.redirect(302, SETTINGS_PAGES[0].path);
    const asset = assets.get(request.path);
    if (!asset) return next();
    response.setHeader('Content-Security-Policy', SETTINGS_PAGE_CSP);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Frame-Options', 'DENY');
    response.setHeader('Cache-Control', 'no-cache');
    response.type(asset.type).send(asset.body);
  };
}
