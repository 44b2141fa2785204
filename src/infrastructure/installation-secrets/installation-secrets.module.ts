import { Module } from '@nestjs/common';
import { InstallationSecrets } from '../../store/repositories/installation-secrets.repository';

/** The installation's own random keys (migration 0029), for the features that derive values from them. */
@Module({ providers: [InstallationSecrets], exports: [InstallationSecrets] })
export class InstallationSecretsModule {}
