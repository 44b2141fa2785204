import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { migrate } from '../store/schema/migrator';
import { CliOutput, EXIT } from './cli-output';

export async function migrateCommand(clickhouse: ClickhouseService, io: CliOutput): Promise<number> {
  const applied = await migrate(clickhouse);
  if (applied.length === 0) io.out(`Database ${clickhouse.database} is up to date.`);
  else
    io.out(
      `Applied ${applied.length} migration${applied.length > 1 ? 's' : ''} to ${clickhouse.database}:\n${applied.map((m) => `  ${m.name}`).join('\n')}`,
    );
  return EXIT.ok;
}
