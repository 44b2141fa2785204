import { Global, Module } from '@nestjs/common';
import { ActivatedKeysService } from './activated-keys.service';
import { TagKeyActivationService } from './tag-key-activation.service';
import { TagKeysAdminController } from './tag-keys-admin.controller';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';

/**
 * Activated tag and cost-category keys (issue 34): which keys an organisation's questions read from the activated
 * columns (every feature asks ActivatedKeysService), and changing them with a back-fill that changes no answer.
 */
@Global()
@Module({
  controllers: [TagKeysAdminController],
  providers: [TagKeysRepository, ActivatedKeysService, TagKeyActivationService],
  exports: [TagKeysRepository, ActivatedKeysService, TagKeyActivationService],
})
export class TagKeysModule {}
