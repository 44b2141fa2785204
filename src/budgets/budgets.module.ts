import { Module } from '@nestjs/common';
import { BudgetAlertsService } from './budget-alerts.service';
import { BudgetSchedulerService } from './budget-scheduler.service';
import { BudgetSumsService } from './budget-sums.service';
import { BudgetWebhooksService } from './budget-webhooks.service';
import { BudgetsAdminController } from './budgets-admin.controller';
import { BudgetsController } from './budgets.controller';
import { BudgetsRepository } from '../store/repositories/budgets.repository';
import { BudgetsService } from './budgets.service';

/**
 * Budgets (`/v1/admin/budgets`, `POST /v1/cost-insights/budgets`): their definitions, their standing, and in worker
 * processes the evaluation that fires alerts and the webhooks that deliver them.
 */
@Module({
  controllers: [BudgetsAdminController, BudgetsController],
  providers: [BudgetsRepository, BudgetSumsService, BudgetsService, BudgetAlertsService, BudgetWebhooksService, BudgetSchedulerService],
  exports: [BudgetsService, BudgetAlertsService, BudgetWebhooksService],
})
export class BudgetsModule {}
