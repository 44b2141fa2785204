import { INestApplicationContext } from '@nestjs/common';
import { once } from 'node:events';
import type Redis from 'ioredis';
import { REDIS } from '../infrastructure/redis/redis.module';
import { SourceRefused, SourcesService, SourceView } from '../sources/sources.service';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type SourcesCommand = Extract<CliCommand, { name: 'sources add' | 'sources list' | 'sources remove' | 'sources run' }>;

/** `sources add|list|remove|run`: an organisation's data sources, as the operator manages them. */
export async function sourcesCommand(app: INestApplicationContext, command: SourcesCommand, io: CliOutput): Promise<number> {
  const sources = app.get(SourcesService);
  const org = command.organizationId;
  switch (command.name) {
    case 'sources add':
      try {
        return print(io, command.json, await sources.add(org, command, 'operator'));
      } catch (error) {
        if (!(error instanceof SourceRefused)) throw error;
        io.err(`Error: ${error.message}`);
        return EXIT.failure;
      }
    case 'sources list': {
      const list = await sources.list(org);
      if (command.json) io.out(JSON.stringify(list));
      else if (list.length === 0) io.out(`No data sources for organisation ${org}.`);
      else io.out(formatTable(['ID', 'INTEGRATION', 'KIND', 'URL', 'LAST CHECK', 'LAST IMPORT'], list.map(tableRow)));
      return EXIT.ok;
    }
    case 'sources remove':
      return print(io, command.json, await sources.remove(org, command.sourceId));
    case 'sources run': {
      await redisReady(app.get<Redis | null>(REDIS));
      const result = await sources.run(org, command.sourceId);
      if (!result) return notFound(io, command.sourceId);
      if (command.json) io.out(JSON.stringify(result));
      else if (result.busy) io.out('Another process is checking this source now; nothing was done here.');
      else
        for (const check of result.checks)
          io.out(`${check.outcome}: ${check.delivery || command.sourceId}${check.message ? `: ${check.message}` : ''}`);
      return result.checks.some((c) => ['refused', 'failed', 'unreachable'].includes(c.outcome)) ? EXIT.failure : EXIT.ok;
    }
  }
}

function print(io: CliOutput, json: boolean, source: SourceView | undefined): number {
  if (!source) return notFound(io, '');
  io.out(
    json ? JSON.stringify(source) : formatTable(['ID', 'INTEGRATION', 'KIND', 'URL', 'LAST CHECK', 'LAST IMPORT'], [tableRow(source)]),
  );
  return EXIT.ok;
}

function notFound(io: CliOutput, id: string): number {
  io.err(`Error: no data source ${id} in this organisation (see \`sources list\`).`);
  return EXIT.failure;
}

function tableRow(source: SourceView): string[] {
  const { status } = source;
  return [
    source.sourceId,
    source.integrationId,
    source.kind,
    source.url,
    status.lastCheckAt ? `${status.lastCheckAt} (${status.lastOutcome})` : '-',
    status.lastImportAt ?? '-',
  ];
}

/** The shared Redis connection refuses commands until connected (no offline queue): wait for it, briefly. */
async function redisReady(redis: Redis | null): Promise<void> {
  if (!redis || redis.status === 'ready') return;
  await Promise.race([once(redis, 'ready'), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
}
