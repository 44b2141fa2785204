import { InvalidRequestException } from '../common/errors/api-errors';
import { describeDataScope, organizationScopeOf } from '../cost-query/data-scope';
import { validDataScope } from '../dto/data-scope.dto';
import { ApiKeysService } from '../auth/api-keys.service';
import { SETTING_DEFAULTS } from '../config/settings';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type Command<N extends CliCommand['name']> = Extract<CliCommand, { name: N }>;

function dataScopeInWords(dataScope: string): string {
  return describeDataScope(organizationScopeOf({ organizationId: '', dataScope }).dataScope);
}

/** Creates a key and prints it: the only time it is ever shown (only its SHA-256 is stored). */
export async function createKeyCommand(apiKeys: ApiKeysService, command: Command<'keys create'>, io: CliOutput): Promise<number> {
  let dataScope = '';
  if (command.dataScope !== undefined) {
    try {
      dataScope = await validDataScope(command.dataScope);
    } catch (error) {
      if (!(error instanceof InvalidRequestException)) throw error;
      io.err(`Invalid --data-scope: ${error.details.join('; ')}`);
      return EXIT.usage;
    }
  }
  const { key, record } = await apiKeys.create(command.organizationId, command.keyName, command.scopes, dataScope);
  if (command.json) {
    io.out(
      JSON.stringify({
        id: record.keyId,
        key,
        organizationId: record.organizationId,
        name: record.name,
        scopes: record.scopes,
        dataScope: record.dataScope ? (JSON.parse(record.dataScope) as unknown) : null,
      }),
    );
    return EXIT.ok;
  }
  io.out(
    [
      `Created API key ${record.keyId} "${record.name}" for organisation ${record.organizationId}`,
      `Scopes: ${record.scopes.join(', ')}`,
      `Data scope: ${dataScopeInWords(record.dataScope)}`,
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
          dataScope: r.dataScope ? (JSON.parse(r.dataScope) as unknown) : null,
          createdAt: r.createdAt,
          revokedAt: r.revokedAt,
          lastUsedAt: r.lastUsedAt ?? null,
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
      ['ID', 'NAME', 'SCOPES', 'DATA SCOPE', 'CREATED', 'LAST USED', 'STATUS'],
      records.map((r) => [
        r.keyId,
        r.name,
        r.scopes.join(','),
        dataScopeInWords(r.dataScope),
        r.createdAt,
        r.lastUsedAt ?? 'never',
        r.revokedAt ? `revoked ${r.revokedAt}` : 'active',
      ]),
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
