import { describeKey, type TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import type { TagKeysRepository } from '../store/repositories/tag-keys.repository';
import type { CliCommand } from './cli-args';
import { CliOutput, EXIT, formatTable } from './cli-output';

type TagKeysCommand = Extract<CliCommand, { name: 'tag-keys show' | 'tag-keys set' }>;

/** `tag-keys show|set`: the keys an organisation's questions read from the activated columns. */
export async function tagKeysCommand(
  repository: TagKeysRepository,
  activation: TagKeyActivationService,
  command: TagKeysCommand,
  io: CliOutput,
): Promise<number> {
  const org = command.organizationId;
  if (command.name === 'tag-keys set') {
    const change = await activation.change(org, { tag: command.tag, costCategory: command.costCategory });
    if (!command.json && change.activating.length > 0) {
      io.err(`Back-filling ${change.activating.map(describeKey).join(', ')} for organisation ${org}…`);
    }
    await change.backfilled;
  }
  const activated = await repository.activations(org);
  if (command.json) {
    const present = await repository.presentKeys(org);
    io.out(JSON.stringify({ organizationId: org, activated, present }));
    return EXIT.ok;
  }
  if (activated.length === 0) io.out(`No activated keys for organisation ${org}: every tag question reads the full maps.`);
  else
    io.out(
      formatTable(
        ['KIND', 'KEY', 'STATE', 'SINCE'],
        activated.map((a) => [a.kind, a.key, a.state, a.updatedAt]),
      ),
    );
  return EXIT.ok;
}
