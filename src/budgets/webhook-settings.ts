import { parseEncryptionKey } from '../common/crypto/secret-box';
import type { AppConfig } from '../config/app-config';
import { parseAllowedHosts } from './webhook-destination';

/** The operator's webhook settings as budgets use them: the allowed destinations, and the key sealing signing secrets. */
export interface WebhookSettings {
  allowedHosts: string[];
  encryptionKey?: Buffer;
}

/** Parsed once per service from the configuration (a pattern that can never match stops the process at start). */
export function webhookSettings(config: AppConfig): WebhookSettings {
  const { webhookAllowedHosts, secretsEncryptionKey } = config.budgets;
  return {
    allowedHosts: parseAllowedHosts(webhookAllowedHosts),
    ...(secretsEncryptionKey ? { encryptionKey: parseEncryptionKey(secretsEncryptionKey) } : {}),
  };
}
