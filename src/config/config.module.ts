import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from './app-config';

/**
 * Provides APP_CONFIG to every module. The entry points (createApp, the CLI) load the configuration from
 * their environment and root their module with it, so settings are passed in, never written to process.env.
 */
@Global()
@Module({})
export class ConfigModule {
  static of(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

/** `root` (AppModule, CliModule…) with `config` as APP_CONFIG. */
export function withConfig(root: Type, config: AppConfig): DynamicModule {
  return { module: root, imports: [ConfigModule.of(config)] };
}
