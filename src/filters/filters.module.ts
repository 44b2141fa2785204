import { Module } from '@nestjs/common';
import { FiltersController } from './filters.controller';
import { FiltersService } from './filters.service';

/** Filter discovery: POST /filters (cross-filtered options), /tag-values and /cost-category-values. */
@Module({
  controllers: [FiltersController],
  providers: [FiltersService],
})
export class FiltersModule {}
