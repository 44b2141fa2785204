// modes: embedded — Swagger UI in Chromium
import { Browser, chromium } from 'playwright-core';
import { listen } from '../support/app-with-env';
import { itWithTools, systemToolPath } from '../support/system-tools';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §6: Swagger UI at /docs shares its origin with the Settings > API keys page, so it is served
 * under a Content-Security-Policy (its own files only, no framing) and does not keep a pasted key in
 * localStorage (persistAuthorization off). Checked on the headers and in Debian's Chromium.
 */
describe('Swagger UI at /docs', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    base = await listen(t);
    org = await t.newOrganization();
  });
  afterAll(() => t.close());

  it('is served with a CSP of its own files, frame-ancestors none, and no framing', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
      const response = await t.http.get(path);
      expect([path, response.status]).toEqual([path, 200]);
      const csp = String(response.headers['content-security-policy'] ?? '');
      expect([path, csp]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    // Its page has no inline script for the policy to allow.
    const html = (await t.http.get('/docs/')).text;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('does not persist an authorization', async () => {
    const init = (await t.http.get('/docs/swagger-ui-init.js')).text;
    expect(init).toMatch(/"persistAuthorization":\s*false/);
  });

  itWithTools(['chromium'])(
    'renders under its CSP without a violation, and a pasted key is kept in no storage',
    async () => {
      let browser: Browser | undefined;
      try {
        browser = await chromium.launch({
          executablePath: systemToolPath('chromium'),
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
        });
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${base}/docs`);
        await page.waitForSelector('.opblock-summary', { timeout: 30_000 });
        expect(await page.locator('.opblock-summary').count()).toBeGreaterThan(5);
        // Authorize with the key, as a user would.
        await page.click('button.authorize');
        await page.fill('.auth-container input', org.key);
        await page.click('.auth-btn-wrapper button.authorize');
        await page.click('button.btn-done');
        const stored = (await page.evaluate(
          'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])',
        )) as string;
        expect(stored).not.toContain(org.key);
        expect(stored).not.toContain(org.key.slice(17));
        expect(errors.filter((error) => /Content Security Policy|Refused to/i.test(error))).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
    120_000,
  );
});
