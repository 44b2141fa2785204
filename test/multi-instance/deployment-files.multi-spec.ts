import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { itWithTools } from '../support/system-tools';
import { ROOT } from './cluster';

/**
 * No Docker engine runs here: the deployment files are checked against what the tests run —
 * docker-compose's nginx.conf is valid nginx (with its hosts and paths mapped onto this machine),
 * every variable the compose file gives the API is one the API reads, and the Dockerfile installs
 * production dependencies only, runs as a non-root user and starts what the tests start.
 */
describe('deployment files', () => {
  itWithTools(['nginx'])('docker-compose nginx.conf is valid nginx and includes the proxy rules the tests run', () => {
    const dir = join(ROOT, '.test-tmp', `nginx-conf-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const conf = readFileSync(join(ROOT, 'deploy/nginx/nginx.conf'), 'utf8');
    expect(conf).toContain('include /etc/nginx/api-proxy.conf;');
    expect(conf).toContain('include /etc/nginx/logging.conf;');
    const local = conf
      .replaceAll('/etc/nginx/', `${ROOT}/deploy/nginx/`)
      .replace(/server api-(\d):3000/g, 'server 127.0.0.1:1')
      .replace('listen 8080;', 'listen 127.0.0.1:1;')
      .replace('/dev/stdout', join(dir, 'access.log'))
      .replace('/dev/stderr', join(dir, 'error.log'))
      .replace('events {', `pid ${dir}/nginx.pid;\nevents {`);
    writeFileSync(join(dir, 'nginx.conf'), local);
    // Throws (non-zero exit) on any syntax or semantic error.
    try {
      execFileSync('nginx', ['-t', '-q', '-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('docker-compose gives the API only variables it reads, and the settings production needs', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const config = readFileSync(join(ROOT, 'src/config/app-config.ts'), 'utf8');
    const apiBlock = compose.slice(compose.indexOf('x-api: &api'), compose.indexOf('\nservices:'));
    const clientEnv = compose.slice(compose.indexOf('x-clickhouse-client-env'), compose.indexOf('x-api: &api'));
    const names = [...`${clientEnv}\n${apiBlock}`.matchAll(/^\s{2,4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['CLICKHOUSE_URL', 'REDIS_URL', 'MIGRATE_ON_START', 'TRUST_PROXY_HOPS']));
    for (const name of names) expect(config).toMatch(new RegExp(`['.]${name}\\b`));
    expect(apiBlock).toMatch(/MIGRATE_ON_START: "false"/);
    expect(compose).toMatch(/api-1:\s+<<: \*api/);
    expect(compose).toMatch(/api-2:\s+<<: \*api/);
    expect(compose).toMatch(/--maxmemory-policy\s+- noeviction/);
    expect(compose).toMatch(/--appendonly\s+- "yes"/);
    // Pinned images: full versions, never `latest`.
    for (const [, image] of compose.matchAll(/image: (\S+)/g)) {
      if (image.startsWith('cost-insights-api')) continue;
      expect(image).toMatch(/:\d+\.\d+\.\d+/);
    }
  });

  it('Dockerfile: production dependencies only, without chdb, as a non-root user, JSON logs, running dist/main.js', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/npm ci --omit=dev --omit=optional/);
    expect(dockerfile).toMatch(/^USER node$/m);
    // Machine-readable logs in production, terminal or not.
    expect(dockerfile).toMatch(/^\s+LOG_FORMAT=json \\$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/main\.js"\]$/m);
    const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(packageJson.optionalDependencies).toHaveProperty('chdb');
    expect(packageJson.dependencies).not.toHaveProperty('chdb');
  });
});
