import { LeastRecentlyUsed } from '../common/cache/least-recently-used';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ConvertedSums, CurrencyConversion, planConversion } from '../cost-query/currency-conversion';
import { monthsOf } from '../cost-query/converted-sums.query';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { REDIS } from '../infrastructure/redis/redis.module';
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

/** What this process knows of one conversion's build, at one data version. */
interface BuildState {
  version: string;
  checkedAt: number;
  found?: { build: ConvertedSums; usableUntil: number };
  pending?: Promise<void>;
}

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
  private readonly states = new LeastRecentlyUsed<BuildState>(REMEMBERED_CONVERSIONS);
  private readonly building = new Set<string>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly sums: ConvertedSumsRepository,
    private readonly currencies: CurrencyRepository,
    private readonly versions: CostDataVersion,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  /**
   * The build an answer with this conversion can read now, or undefined (the answer then converts the cost rows;
   * a build is looked for, or written, in the background). Never for a conversion that lacks a rate: that answer
   * is refused by the cost rows' statement, naming the dates.
   */
  async ready(organizationId: string, conversion: CurrencyConversion): Promise<ConvertedSums | undefined> {
    if (!this.config.convertedSums || conversion.missing.size > 0) return undefined;
    const state = await this.state(organizationId, conversion);
    if (state.found && Date.now() < state.found.usableUntil) {
      metrics.convertedAnswers.inc({ read: 'converted_sums' });
      return state.found.build;
    }
    if (!state.pending && Date.now() - state.checkedAt >= LOOK_AGAIN_MS) {
      state.pending = this.findOrBuild(organizationId, conversion, state)
        .catch((error: unknown) => {
          metrics.convertedSumBuilds.inc({ outcome: 'failed' });
          this.logger.warn(`converted sums of an organisation not built: ${error instanceof Error ? error.message : String(error)}`);
        })
        .finally(() => {
          state.pending = undefined;
          state.checkedAt = Date.now();
          this.running.delete(pending);
        });
      const pending = state.pending;
      this.running.add(pending);
    }
    metrics.convertedAnswers.inc({ read: 'cost_rows' });
    return undefined;
  }

  /** A build under way finishes (or fails) before the connections it uses close. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** This process's state of the conversion's build at the organisation's current data version. */
  private async state(organizationId: string, conversion: CurrencyConversion): Promise<BuildState> {
    const key = `${organizationId.toLowerCase()}|${conversion.target}|${conversion.policy}`;
    const version = await this.versions.current(organizationId);
    const known = this.states.get(key);
    const state = known?.version === version ? known : { version, checkedAt: Number.NEGATIVE_INFINITY };
    this.states.set(key, state);
    return state;
  }

  private async findOrBuild(organizationId: string, conversion: CurrencyConversion, state: BuildState): Promise<void> {
    const key: BuildKey = {
      organizationId,
      inputs: await this.versions.readAnswerInputsNow(organizationId),
      target: conversion.target,
      policy: conversion.policy,
    };
    const build = (await this.sums.find(key, BUILD_USABLE_SECONDS)) ?? (await this.buildOnce(key));
    if (build) state.found = { build: this.sums.sums(build), usableUntil: Date.now() + (BUILD_USABLE_SECONDS - build.ageSeconds) * 1000 };
  }

  /** Builds `key` unless this process or another instance is already building it. */
  private async buildOnce(key: BuildKey): Promise<RegisteredBuild | undefined> {
    const claim = `cost-insights:converted-sums:${key.organizationId.toLowerCase()}:${key.target}:${key.policy}:${key.inputs}`;
    if (this.building.has(claim) || !(await this.claim(claim))) return undefined;
    this.building.add(claim);
    try {
      return await this.build(key);
    } finally {
      this.building.delete(claim);
      await this.redis?.del(claim).catch(() => undefined);
    }
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

  /** One instance builds a key at a time (Redis); without Redis, or with it unreachable, this one does. */
  private async claim(claim: string): Promise<boolean> {
    if (!this.redis) return true;
    try {
      return (await this.redis.set(claim, '1', 'PX', BUILD_CLAIM_MS, 'NX')) === 'OK';
    } catch {
      return true;
    }
  }
}
