import { AnomaliesRequestDto } from '../../anomalies/dto/anomalies-request.dto';
import { ANOMALY_LIMITS } from '../../anomalies/anomaly-limits';
import { FEEDBACK_REASONS } from '../../store/repositories/anomalies.repository';
import { organizationScopeOf } from '../../cost-query/data-scope';
import { compactAnomalies, COMPACT_ROOT_CAUSES } from '../compact-answers';
import { DIMENSIONS_TEXT, flag, MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** find_anomalies: POST /v1/cost-insights/anomalies, each anomaly's first root causes unless all are asked for. */
export function findAnomaliesTool({ anomalies }: ToolServices): ToolDefinition {
  return {
    name: 'find_anomalies',
    title: 'Find cost anomalies and their root causes',
    description: () =>
      'Days a cost rose well above its usual level (POST /v1/cost-insights/anomalies), newest first (at most ' +
      `${ANOMALY_LIMITS.maxAnomalies}). Series: the daily amortized cost of each of the ${ANOMALY_LIMITS.monitoredValues} values of dimension ` +
      `(default ${ANOMALY_LIMITS.defaultDimension}) with the highest costs, the rest as "${ANOMALY_LIMITS.otherLabel}"; ` +
      `${ANOMALY_LIMITS.leftOutCategories.join(', ')} charges are left out. Days scanned: dateRange (at most ${ANOMALY_LIMITS.maxDays} days), ` +
      `default the last ${ANOMALY_LIMITS.defaultDays} complete days; only complete days (up to yesterday, UTC) are judged. ` +
      `Each day is compared with a baseline of the ${ANOMALY_LIMITS.baselineDays} days before it (method in the answer). ` +
      'Per anomaly: start and end (consecutive anomalous days are one anomaly), dimension_value (the series), expected (the baseline over its days), ' +
      "actual, impact = actual − expected, all in the answer's currency; impactPercentage = impact / expected in percent (null when nothing was " +
      `expected); score = robust z-score, how many robust standard deviations the worst day lies above its baseline (anomalous from ${ANOMALY_LIMITS.scoreThreshold}); ` +
      `rootCauses = what moved: the accounts, services, regions, usage types or tag values whose cost rose over their average of the ${ANOMALY_LIMITS.baselineDays} days before ` +
      "(tags: every key, or the organisation's activated keys — rootCauseTags, root_cause_tags says which) " +
      `(contribution: by how much, in the answer's currency), the most telling first (${COMPACT_ROOT_CAUSES} here, more_root_causes counts the rest; includeAllRootCauses gives up to ` +
      `${ANOMALY_LIMITS.rootCauses}); feedback = why someone said it happened (${FEEDBACK_REASONS.join(', ')}) or null; ` +
      `id names it for feedback over REST (POST /v1/cost-insights/anomalies/{id}/feedback, scope anomalies:write; kept ${ANOMALY_LIMITS.keptDays} days). ` +
      `Only increases with impact ≥ minImpact (default ${ANOMALY_LIMITS.defaultMinImpact}) and ≥ minImpactPercentage (default ` +
      `${ANOMALY_LIMITS.defaultMinImpactPercentage} %) are anomalies; thresholds states them. Filters must not contain dateRange or billingPeriods. ` +
      `${DIMENSIONS_TEXT} ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/anomalies' },
    dto: AnomaliesRequestDto,
    controls: {
      includeAllRootCauses: flag(
        `Return every root cause of each anomaly (up to ${ANOMALY_LIMITS.rootCauses}), not only the first ${COMPACT_ROOT_CAUSES}.`,
      ),
    },
    run: async ({ body, controls, principal }) => {
      const result = await anomalies.scan(organizationScopeOf(principal), body as AnomaliesRequestDto);
      return compactAnomalies(result, controls.includeAllRootCauses === true);
    },
  };
}
