import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { BackgroundBuilds, FoundBuild } from '../common/cache/background-builds';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CATEGORY_SUM_MAP, CategorySums, readsOnlyRuleCategories } from '../cost-query/category-sums.query';
import type { CostDataQuery } from '../cost-query/cost-data.query';
import { monthsOf } from '../cost-query/converted-sums.query';
import { compileCategories } from '../cost-query/cost-category-rules';
import type { OrganizationScope } from '../cost-query/filters.types';
import { REDIS } from '../infrastructure/redis/redis.module';
import { redisBuildClaims } from '../infrastructure/redis/redis-lease';
import { metrics } from '../observability/prometheus-metrics';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { CategorySumsRepository, RegisteredCategoryBuild } from '../store/repositories/category-sums.repository';
import { CostCategoriesRepository } from '../store/repositories/cost-categories.repository';
import { CurrencyRepository } from '../store/repositories/currency.repository';
import { CATEGORY_COLUMNS, versionedCategories } from './rule-categories.service';

/** How long a build is read after it was written (its parts are dropped three days after their day: migration 0038). */
const BUILD_USABLE_SECONDS = 12 * 3600;
/** A process that found no build looks again after this long (another instance may have written one meanwhile). */
const LOOK_AGAIN_MS = 5_000;
/** How long one instance holds the right to build an organisation's sums (across instances, through Redis). */
const BUILD_CLAIM_MS = 10 * 60_000;
/** Organisations whose build state is remembered at once (the least recently used is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 1_000;

/**
 * Category sums: a /data question grouped or filtered by rule-defined categories (and by no tag or imported category)
 * reads the organisation's costs with every rule-defined category's value already computed (migration 0038), instead
 * of evaluating the rules on every row it reads. The first such question of a state (costs, rates, settings and saved
 * versions: their digest, which merges do not change) is answered by the rules and starts a build in the background;
 * once complete and its inputs proved unchanged by it, the build is registered and read. Answers are the same either
 * way (the same values of the same rows, summed exactly), and a saved version is never read half-applied: a build
 * holds one state whole, or is not read.
 */
@Injectable()
export class CategorySumsService implements OnModuleDestroy {
  private readonly logger = new Logger('CategorySums');
  private readonly builds: BackgroundBuilds<CategorySums>;

  constructor(
    private readonly sums: CategorySumsRepository,
    private readonly definitions: CostCategoriesRepository,
    private readonly currencies: CurrencyRepository,
    private readonly versions: CostDataVersion,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis | null,
  ) {
    this.builds = new BackgroundBuilds({
      remembered: REMEMBERED_ORGANIZATIONS,
      lookAgainMs: LOOK_AGAIN_MS,
      claims: redisBuildClaims(redis, BUILD_CLAIM_MS),
      onFailure: (error) => {
        metrics.categorySumBuilds.inc({ outcome: 'failed' });
        this.logger.warn(`category sums of an organisation not built: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
  }

  /**
   * The scope of `query`, reading a registered build when one answers it (its table and id, and the build's values of
   * the rule-defined categories instead of their rules); else the query's own (a build is looked for, or written, in
   * the background).
   */
  async scopeFor(query: Pick<CostDataQuery, 'scope' | 'filters' | 'dimensions'>): Promise<OrganizationScope> {
    const { scope } = query;
    const rules = scope.ruleCategories;
    if (!rules || !this.config.categorySums || !readsOnlyRuleCategories(query)) return scope;
    const version = await this.versions.current(scope.organizationId);
    const build = this.builds.ready(scope.organizationId.toLowerCase(), version, () => this.findOrBuild(scope.organizationId));
    metrics.categoryAnswers.inc({ read: build ? 'category_sums' : 'rules' });
    return build ? { ...scope, ruleCategories: { ...rules, sql: CATEGORY_SUM_MAP, params: {} }, categorySums: build } : scope;
  }

  /** A build under way finishes (or fails) before the connections it uses close. */
  async onModuleDestroy(): Promise<void> {
    await this.builds.settled();
  }

  private async findOrBuild(organizationId: string): Promise<FoundBuild<CategorySums> | undefined> {
    const inputs = await this.versions.readCategorisedAnswerInputsNow(organizationId);
    const claim = `cost-insights:category-sums:${organizationId.toLowerCase()}:${inputs}`;
    const build =
      (await this.sums.find(organizationId, inputs, BUILD_USABLE_SECONDS)) ??
      (await this.builds.once(claim, () => this.build(organizationId, inputs)));
    return build && { build: this.sums.sums(build.buildId), usableUntil: Date.now() + (BUILD_USABLE_SECONDS - build.ageSeconds) * 1000 };
  }

  /**
   * Writes a build from the definitions and rows read after `inputs` was, and registers it only if they are still
   * those inputs once it is written (an import or a saved version meanwhile: it is left to expire, never read).
   */
  private async build(organizationId: string, inputs: string): Promise<RegisteredCategoryBuild | undefined> {
    const categories = versionedCategories(await this.definitions.versions(organizationId));
    const compiled = compileCategories(
      categories,
      categories.map((category) => category.key),
      CATEGORY_COLUMNS,
    );
    if (!compiled) return undefined;
    const buildId = randomUUID();
    const rows = await this.sums.write(organizationId, buildId, compiled, monthsOf(await this.currencies.presence(organizationId)));
    if ((await this.versions.readCategorisedAnswerInputsNow(organizationId)) !== inputs) {
      metrics.categorySumBuilds.inc({ outcome: 'superseded' });
      return undefined;
    }
    await this.sums.register(organizationId, inputs, buildId, rows);
    metrics.categorySumBuilds.inc({ outcome: 'built' });
    return { buildId, ageSeconds: 0 };
  }
}
