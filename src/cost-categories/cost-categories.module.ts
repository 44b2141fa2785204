import { Global, Module } from '@nestjs/common';
import { CostCategoriesAdminController } from './cost-categories-admin.controller';
import { CostCategoriesRepository } from '../store/repositories/cost-categories.repository';
import { CostCategoriesService } from './cost-categories.service';
import { RuleCategoriesService } from './rule-categories.service';
import { SplitsService } from './splits.service';
import { CategorySumsService } from './category-sums.service';
import { CategorySumsRepository } from '../store/repositories/category-sums.repository';

/**
 * Cost categories defined by rules (allocation): their versions, their admin API, and the categories each question
 * computes (RuleCategoriesService, which every question's scope goes through: tag-keys/activated-keys.service.ts) and
 * the cost their splits move (SplitsService).
 */
@Global()
@Module({
  controllers: [CostCategoriesAdminController],
  providers: [
    CostCategoriesRepository,
    CostCategoriesService,
    RuleCategoriesService,
    SplitsService,
    CategorySumsRepository,
    CategorySumsService,
  ],
  exports: [RuleCategoriesService, SplitsService, CategorySumsService],
})
export class CostCategoriesModule {}
