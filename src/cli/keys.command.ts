import { ApiKeysService } from '../auth/api-keys.service';
import { SETTING_DEFAULTS } from '../config/settings';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type Command<N extends CliCommand['name']> = Extract<CliCommand, { name: N }>;

/** Creates a key and prints it: the only time it is ever shown (only its SHA-256 is stored). */
export async function createKeyCommand(apiKeys: ApiKeysService, command: Command<'keys create'>, io: CliOutput): Promise<number> {
  const { key, record } = await apiKeys.create(command.organizationId, command.keyName, command.scopes);
  if (command.json) {
    io.out(JSON.stringify({ id: record.keyId, key, organizationId: record.organizationId, name: record.name, scopes: record.scopes }));
    return EXIT.ok;
  }
  io.out(
    [
      `Created API key ${record.keyId} "${record.name}" for organisation ${record.organizationId}`,
      `Scopes: ${record.scopes.join(', ')}`,
      '',
      `    ${key}`,
      '',
      'Store this key now: it is shown only this once and cannot be recovered (only its hash is kept).',
      'Use it as: Authorization: Bearer <key>',
    ].join('\n'),
  );
  return EXIT.ok;
}

/** Lists an organisation's keys: ids, names, scopes and status, never hashes or keys. */
export async function listKeysCommand(apiKeys: ApiKeysService, command: Command<'keys list'>, io: CliOutput): Promise<number> {
  const records = await apiKeys.list(command.organizationId);
  if (command.json) {
    io.out(
      JSON.stringify(
        records.map((r) => ({
          id: r.keyId,
          organizationId: r.organizationId,
          name: r.name,
          scopes: r.scopes,
          createdAt: r.createdAt,
          revokedAt: r.revokedAt,
        })),
      ),
    );
    return EXIT.ok;
  }
  if (records.length === 0) {
    io.out(`No API keys for organisation ${command.organizationId}.`);
    return EXIT.ok;
  }
  io.out(
    formatTable(
      ['ID', 'NAME', 'SCOPES', 'CREATED', 'STATUS'],
      records.map((r) => [r.keyId, r.name, r.scopes.join(','), r.createdAt, r.revokedAt ? `revoked ${r.revokedAt}` : 'active']),
    ),
  );
  return EXIT.ok;
}

export async function revokeKeyCommand(apiKeys: ApiKeysService, command: Command<'keys revoke'>, io: CliOutput): Promise<number> {
  if (!(await apiKeys.revoke(command.keyId))) {
    io.err(`No API key with id "${command.keyId}".`);
    return EXIT.failure;
  }
  io.out(
    `Revoked API key ${command.keyId}. Running servers reject it once their key cache expires ` +
      `(API_KEY_CACHE_TTL_SECONDS, default ${SETTING_DEFAULTS.API_KEY_CACHE_TTL_SECONDS} s).`,
  );
  return EXIT.ok;
}
