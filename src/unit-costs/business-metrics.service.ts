import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import {
  checkedJsonValues,
  listedProblems,
  METRIC_LIMITS,
  metricDimensionProblem,
  metricNameProblem,
  parseValuesCsv,
} from './business-metric';
import { BusinessMetric, MetricValue, BusinessMetricsRepository, StoredMetric } from '../store/repositories/business-metrics.repository';
import type { BusinessMetricDto, BusinessMetricListItemDto, MetricValuesLoadedDto } from './dto/unit-costs.dto';

/** Business metrics: defined per organisation (`metrics:admin`), their daily values loaded whole days at a time. */
@Injectable()
export class BusinessMetricsService {
  constructor(private readonly repository: BusinessMetricsRepository) {}

  async list(organizationId: string): Promise<BusinessMetricListItemDto[]> {
    return (await this.repository.metrics(organizationId)).map(listItem);
  }

  /** The metric, or a 400 naming it (an unknown metric is the request's mistake). */
  async metric(organizationId: string, name: string, field = 'metric'): Promise<StoredMetric> {
    const metric = await this.defined(organizationId, name);
    if (!metric)
      throw new InvalidRequestException([
        `${field}: no business metric named ${JSON.stringify(name)}; GET /v1/admin/business-metrics lists them`,
      ]);
    return metric;
  }

  /** The metric in force under that name, if any. */
  async defined(organizationId: string, name: string): Promise<StoredMetric | undefined> {
    const [metric] = await this.repository.metrics(organizationId, name);
    return metric;
  }

  async define(organizationId: string, name: string, request: BusinessMetricDto, actor: string): Promise<BusinessMetricListItemDto> {
    const problems = [metricNameProblem(name), metricDimensionProblem(request.dimension ?? '')].filter((problem) => problem !== undefined);
    if (problems.length > 0) throw new InvalidRequestException(problems);
    const existing = await this.repository.metrics(organizationId);
    const current = existing.find((metric) => metric.name === name);
    if (!current && existing.length >= METRIC_LIMITS.maxMetricsPerOrganization)
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        `The organisation already has ${METRIC_LIMITS.maxMetricsPerOrganization} business metrics, the most it may keep.`,
      );
    const dimension = request.dimension ?? '';
    if (current && current.dimension !== dimension)
      throw new InvalidRequestException([
        `dimension: the metric's values are per ${current.dimension || 'nothing'}; remove it to define it anew`,
      ]);
    const metric: BusinessMetric = { name, unit: request.unit, unitScale: request.unitScale ?? 1, dimension };
    await this.repository.saveMetric(organizationId, metric, actor);
    return listItem((await this.repository.metrics(organizationId, name))[0]);
  }

  async remove(organizationId: string, name: string, actor: string): Promise<BusinessMetricListItemDto> {
    const metric = await this.metric(organizationId, name, 'name');
    await this.repository.saveMetric(organizationId, metric, actor, true);
    return listItem(metric);
  }

  /** Loads values (a CSV text or the JSON body's list), checked whole: one bad line refuses the load, nothing is stored. */
  async load(organizationId: string, name: string, body: string | ReadonlyArray<Record<string, unknown>>): Promise<MetricValuesLoadedDto> {
    const metric = await this.metric(organizationId, name, 'name');
    const dimensioned = metric.dimension !== '';
    const parsed = typeof body === 'string' ? parseValuesCsv(body, dimensioned) : checkedJsonValues(body, dimensioned);
    return this.loadChecked(organizationId, metric, parsed);
  }

  /**
   * Loads the CSV files of a data source's delivery as one load, checked whole as a request's body is: a bad line of
   * any file refuses them all, named by file, line and column.
   */
  async loadFiles(
    organizationId: string,
    metric: StoredMetric,
    files: ReadonlyArray<{ name: string; text: string }>,
  ): Promise<MetricValuesLoadedDto> {
    const parsed = files.map((file) => {
      const { values, problems } = parseValuesCsv(file.text, metric.dimension !== '');
      return { values, problems: problems.map((problem) => `${file.name}: ${problem}`) };
    });
    return this.loadChecked(organizationId, metric, {
      values: parsed.flatMap((file) => file.values),
      problems: parsed.flatMap((file) => file.problems),
    });
  }

  private async loadChecked(
    organizationId: string,
    metric: StoredMetric,
    { values, problems }: { values: MetricValue[]; problems: string[] },
  ): Promise<MetricValuesLoadedDto> {
    const { name } = metric;
    if (problems.length > 0) throw new InvalidRequestException(listedProblems(problems));
    if (values.length === 0) throw new InvalidRequestException(['values: nothing to load']);
    if (values.length > METRIC_LIMITS.maxValuesPerLoad)
      throw new InvalidRequestException([`values: at most ${METRIC_LIMITS.maxValuesPerLoad} per load, received ${values.length}`]);
    const duplicate = firstDuplicate(values);
    if (duplicate) throw new InvalidRequestException([`values: ${duplicate} is given twice`]);
    await this.refuseTooManyDimensionValues(organizationId, metric, values);
    await this.repository.loadValues(organizationId, name, values);
    const days = [...new Set(values.map((value) => value.date))].sort();
    return { name, values: values.length, days: days.length, first: days[0], last: days.at(-1)! };
  }

  private async refuseTooManyDimensionValues(organizationId: string, metric: StoredMetric, values: readonly MetricValue[]): Promise<void> {
    if (metric.dimension === '') return;
    const count = await this.repository.dimensionValueCount(
      organizationId,
      metric.name,
      values.map((value) => value.dimensionValue),
    );
    if (count > METRIC_LIMITS.maxDimensionValuesPerMetric)
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        `The metric ${metric.name} would have ${count} dimension values, more than ${METRIC_LIMITS.maxDimensionValuesPerMetric}.`,
      );
  }
}

function listItem(metric: StoredMetric): BusinessMetricListItemDto {
  return {
    name: metric.name,
    unit: metric.unit,
    unitScale: metric.unitScale,
    dimension: metric.dimension || null,
    updatedAt: metric.updatedAt,
  };
}

/** The first (day, dimension value) given twice in one load, as people read it. */
function firstDuplicate(values: readonly MetricValue[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    const key = `${value.date}|${value.dimensionValue}`;
    if (seen.has(key)) return value.dimensionValue ? `${value.date} for ${JSON.stringify(value.dimensionValue)}` : value.date;
    seen.add(key);
  }
  return undefined;
}
