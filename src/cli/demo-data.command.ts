import { loadDemoData } from '../demo/demo-data.loader';
import { countOrganizationCosts, deleteOrganizationCosts } from '../store/cost-partitions';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT } from './cli-output';

type DemoDataCommand = Extract<CliCommand, { name: 'demo-data' }>;

/**
 * Loads the demo estate for an organisation. Loading twice would double every cost, so an
 * organisation that already has rows is refused unless --replace asks to delete them first.
 */
export async function demoDataCommand(clickhouse: ClickhouseService, command: DemoDataCommand, io: CliOutput): Promise<number> {
  const existing = await countOrganizationCosts(clickhouse, command.organizationId);
  if (existing > 0) {
    if (!command.replace) {
      io.err(
        `Organisation ${command.organizationId} already has ${existing} cost rows; loading again would double them. ` +
          'Use --replace to delete them first, or choose another organisation.',
      );
      return EXIT.failure;
    }
    await deleteOrganizationCosts(clickhouse, command.organizationId);
  }
  const started = Date.now();
  const result = await loadDemoData(clickhouse, { organizationId: command.organizationId, days: command.days, seed: command.seed });
  const seconds = (Date.now() - started) / 1000;
  if (command.json) {
    io.out(
      JSON.stringify({
        organizationId: command.organizationId,
        rows: result.rows,
        metricValues: result.metricValues,
        from: result.from,
        to: result.to,
        days: command.days,
        seed: command.seed,
        replaced: existing,
      }),
    );
  } else {
    io.out(
      `Loaded ${result.rows} demo cost rows for organisation ${command.organizationId} ` +
        `(${result.from} to ${result.to}, seed ${command.seed}) in ${seconds.toFixed(1)} s` +
        (existing > 0 ? `, replacing ${existing} rows.` : '.'),
    );
  }
  return EXIT.ok;
}
