import { readFileSync } from 'node:fs';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import { BusinessMetricsService } from '../unit-costs/business-metrics.service';
import { BusinessMetricDto, MetricValuesLoadedDto } from '../unit-costs/dto/unit-costs.dto';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type MetricsCommand = Extract<CliCommand, { name: `metrics ${string}` }>;

/** Who saved a definition from the CLI: the operator, not a key or a person signed in. */
const CLI_ACTOR = 'cli';

/** `metrics list|define|import`: an organisation's business metrics and their daily values, as the admin API has them. */
export async function metricsCommand(service: BusinessMetricsService, command: MetricsCommand, io: CliOutput): Promise<number> {
  try {
    switch (command.name) {
      case 'metrics list':
        return await listMetrics(service, command.organizationId, command.json, io);
      case 'metrics define':
        return await defineMetric(service, command, io);
      case 'metrics import': {
        const loaded = await service.load(command.organizationId, command.metricName, readValuesFile(command.file));
        io.out(command.json ? JSON.stringify(loaded) : describeLoaded(loaded));
        return EXIT.ok;
      }
    }
  } catch (error) {
    return reportRefusal(command, error, io);
  }
}

async function listMetrics(service: BusinessMetricsService, organizationId: string, json: boolean, io: CliOutput): Promise<number> {
  const metrics = await service.list(organizationId);
  if (json) io.out(JSON.stringify({ organizationId, metrics }));
  else if (metrics.length === 0) io.out(`No business metric is defined in organisation ${organizationId}.`);
  else
    io.out(
      formatTable(
        ['NAME', 'UNIT', 'SCALE', 'DIMENSION', 'UPDATED'],
        metrics.map((m) => [m.name, m.unit, String(m.unitScale), m.dimension ?? '-', m.updatedAt]),
      ),
    );
  return EXIT.ok;
}

async function defineMetric(
  service: BusinessMetricsService,
  command: Extract<MetricsCommand, { name: 'metrics define' }>,
  io: CliOutput,
): Promise<number> {
  const body = { unit: command.unit, unitScale: command.unitScale, dimension: command.dimension };
  // The options checked by the request DTO exactly as the API checks a PUT body (the unit's length, the dimension).
  const request = (await new ApiValidationPipe().transform(withoutUndefined(body), {
    type: 'body',
    metatype: BusinessMetricDto,
  })) as BusinessMetricDto;
  const defined = await service.define(command.organizationId, command.metricName, request, CLI_ACTOR);
  const per = defined.unitScale === 1 ? defined.unit : `${defined.unitScale} × ${defined.unit}`;
  io.out(
    command.json
      ? JSON.stringify(defined)
      : `Defined ${defined.name}: unit costs per ${per}, ${defined.dimension ? `values per ${defined.dimension}` : 'one series for the organisation'}.`,
  );
  return EXIT.ok;
}

/** The file's text: CSV, parsed and checked whole by the service as the API's text/csv body is. */
function readValuesFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidRequestException([`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
}

function describeLoaded(loaded: MetricValuesLoadedDto): string {
  const span = loaded.first === loaded.last ? loaded.first : `${loaded.first} to ${loaded.last}`;
  return `Loaded ${counted(loaded.values, 'value')} of ${loaded.name} over ${counted(loaded.days, 'day')} (${span}); each of those days now reads these values only.`;
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The API's refusal, one line per problem (a load is checked whole: nothing of a refused file is stored). */
function reportRefusal(command: MetricsCommand, error: unknown, io: CliOutput): number {
  if (error instanceof InvalidRequestException) {
    const what =
      command.name === 'metrics import' ? 'the values were refused, nothing was stored' : 'the metric was refused, nothing was saved';
    io.err(`Error: ${what}:\n  ${error.details.join('\n  ')}`);
    return EXIT.failure;
  }
  if (error instanceof ApiError) {
    io.err(`Error: ${error.message}`);
    return EXIT.failure;
  }
  throw error;
}

/** Options left out stay out of the body, as fields a PUT body leaves out. */
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
