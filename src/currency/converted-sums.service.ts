import { randomUUID } from 'node:crypto';
import { BackgroundBuilds, FoundBuild } from '../common/cache/background-builds';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ConvertedSums, CurrencyConversion, planConversion } from '../cost-query/currency-conversion';
import { monthsOf } from '../cost-query/converted-sums.query';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { REDIS } from '../infrastructure/redis/redis.module';
import { redisBuildClaims } from '../infrastructure/redis/redis-lease';
import { metrics } from '../observability/prometheus-metrics';
import { BuildKey, ConvertedSumsRepository, RegisteredBuild } from '../store/repositories/converted-sums.repository';
import { CurrencyRepository } from '../store/repositories/currency.repository';

/** How long a build is read after it was written (its parts are dropped three days after their day: migration 0021). */
const BUILD_USABLE_SECONDS = 12 * 3600;
/** A process that found no build looks again after this long (another instance may have written one meanwhile). */
const LOOK_AGAIN_MS = 5_000;
/** How long one instance holds the right to build a key (across instances, through Redis). */
const BUILD_CLAIM_MS = 10 * 60_000;
/** Answer conversions whose build state is remembered at once (the least recently used is forgotten first). */
const REMEMBERED_CONVERSIONS = 1_000;

/**
 * Converted sums: a converting /data question reads an organisation's costs already converted into the answer's
 * currency (migration 0021), as few rows as the unconverted question reads, instead of converting every (currency,
 * day) group while answering. The first converted question of a state (costs, rates and settings: their digest,
 * which merges do not change) is answered from the cost rows and starts a build in the background; once that build
 * is complete and the inputs proved unchanged by it, it is registered and read. Answers are the same either way
 * (exact sums of the same products, rounded once).
 */
@Injectable()
export class ConvertedSumsService implements OnModuleDestroy {
  private readonly logger = new Logger('ConvertedSums');
  private readonly builds: BackgroundBuilds<ConvertedSums>;

  constructor(
    private readonly sums: ConvertedSumsRepository,
    private readonly currencies: CurrencyRepository,
    private readonly versions: CostDataVersion,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis | null,
  ) {
    this.builds = new BackgroundBuilds({
      remembered: REMEMBERED_CONVERSIONS,
      lookAgainMs: LOOK_AGAIN_MS,
      claims: redisBuildClaims(redis, BUILD_CLAIM_MS),
      onFailure: (error) => {
        metrics.convertedSumBuilds.inc({ outcome: 'failed' });
        this.logger.warn(`converted sums of an organisation not built: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
  }

  /**
   * The build an answer with this conversion can read now, or undefined (the answer then converts the cost rows;
   * a build is looked for, or written, in the background). Never for a conversion that lacks a rate: that answer
   * is refused by the cost rows' statement, naming the dates.
   */
  async ready(organizationId: string, conversion: CurrencyConversion): Promise<ConvertedSums | undefined> {
    if (!this.config.convertedSums || conversion.missing.size > 0) return undefined;
    const key = `${organizationId.toLowerCase()}|${conversion.target}|${conversion.policy}`;
    const version = await this.versions.current(organizationId);
    const build = this.builds.ready(key, version, () => this.findOrBuild(organizationId, conversion));
    metrics.convertedAnswers.inc({ read: build ? 'converted_sums' : 'cost_rows' });
    return build;
  }

  /** A build under way finishes (or fails) before the connections it uses close. */
  async onModuleDestroy(): Promise<void> {
    await this.builds.settled();
  }

  private async findOrBuild(organizationId: string, conversion: CurrencyConversion): Promise<FoundBuild<ConvertedSums> | undefined> {
    const key: BuildKey = {
      organizationId,
      inputs: await this.versions.readAnswerInputsNow(organizationId),
      target: conversion.target,
      policy: conversion.policy,
    };
    const claim = `cost-insights:converted-sums:${key.organizationId.toLowerCase()}:${key.target}:${key.policy}:${key.inputs}`;
    const build = (await this.sums.find(key, BUILD_USABLE_SECONDS)) ?? (await this.builds.once(claim, () => this.build(key)));
    return build && { build: this.sums.sums(build), usableUntil: Date.now() + (BUILD_USABLE_SECONDS - build.ageSeconds) * 1000 };
  }

  /**
   * Writes a build from inputs read after `key.inputs` was, and registers it only if they are still those inputs
   * once it is written (an import, a rate or a setting changed meanwhile: it is left to expire, never read).
   */
  private async build(key: BuildKey): Promise<RegisteredBuild | undefined> {
    const { organizationId, target, policy } = key;
    const [settings, presence] = await Promise.all([this.currencies.settings(organizationId), this.currencies.presence(organizationId)]);
    if (settings.conversionPolicy !== policy || presence.every((entry) => entry.currency === target)) return undefined;
    const book = await this.currencies.rateBook(organizationId, target, presence);
    const conversion = planConversion(target, policy, presence, {}, book);
    if (!conversion || conversion.missing.size > 0) {
      metrics.convertedSumBuilds.inc({ outcome: 'missing_rates' });
      return undefined;
    }
    const build = { buildId: randomUUID(), currencies: [...conversion.rates.keys()] };
    const rows = await this.sums.write(organizationId, build.buildId, conversion, monthsOf(presence));
    if ((await this.versions.readAnswerInputsNow(organizationId)) !== key.inputs) {
      metrics.convertedSumBuilds.inc({ outcome: 'superseded' });
      return undefined;
    }
    await this.sums.register(key, build, rows);
    metrics.convertedSumBuilds.inc({ outcome: 'built' });
    return { ...build, ageSeconds: 0 };
  }
}
