import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { CostCategoriesService } from '../cost-categories/cost-categories.service';
import { CostCategoryDefinitionDto } from '../cost-categories/dto/cost-category.dto';
import type { CliCommand } from './cli-args';
import { readRequestFile } from './cli-request-file';
import { CliOutput, EXIT, formatTable } from './cli-output';

type CostCategoriesCommand = Extract<CliCommand, { name: `cost-categories ${string}` }>;

/** Who saved a version from the CLI: the operator, not a key or a person signed in. */
const CLI_ACTOR = 'cli';

/** `cost-categories list|show|set|preview|delete`: an organisation's rule-defined cost categories, as the admin API has them. */
export async function costCategoriesCommand(
  service: CostCategoriesService,
  command: CostCategoriesCommand,
  io: CliOutput,
): Promise<number> {
  const org = command.organizationId;
  try {
    switch (command.name) {
      case 'cost-categories list': {
        const { categories } = await service.list(org);
        if (command.json) io.out(JSON.stringify({ organizationId: org, categories }));
        else if (categories.length === 0) io.out(`No cost category is defined by rules in organisation ${org}.`);
        else
          io.out(
            formatTable(
              ['KEY', 'VERSION', 'FROM', 'DEFAULT', 'RULES', 'UPDATED'],
              categories.map((c) => [c.key, String(c.version), c.effectiveFrom, c.defaultValue, String(c.ruleCount), c.updatedAt]),
            ),
          );
        return EXIT.ok;
      }
      case 'cost-categories show':
      case 'cost-categories delete': {
        const versions =
          command.name === 'cost-categories show'
            ? await service.versions(org, command.key)
            : await service.delete(org, command.key, CLI_ACTOR);
        if (command.json) io.out(JSON.stringify(versions));
        else
          io.out(
            formatTable(
              ['VERSION', 'FROM', 'DEFAULT', 'RULES', 'SAVED', 'BY'],
              versions.versions.map((v) => [
                String(v.version),
                v.effectiveFrom,
                v.deleted ? '(deleted)' : v.defaultValue!,
                String(v.rules?.length ?? 0),
                v.createdAt,
                v.createdBy,
              ]),
            ),
          );
        return EXIT.ok;
      }
      case 'cost-categories set':
      case 'cost-categories preview': {
        const definition = await readRequestFile(command.file, CostCategoryDefinitionDto);
        if (command.name === 'cost-categories preview') {
          const preview = await service.preview({ organizationId: org }, command.key, definition, {});
          io.out(command.json ? JSON.stringify(preview) : describePreview(preview));
          return EXIT.ok;
        }
        const saved = await service.save(org, command.key, definition, CLI_ACTOR);
        const version = saved.versions.at(-1)!;
        io.out(
          command.json
            ? JSON.stringify(saved)
            : `Saved ${command.key} version ${version.version}, in effect from ${version.effectiveFrom}.`,
        );
        return EXIT.ok;
      }
    }
  } catch (error) {
    if (error instanceof InvalidRequestException) {
      io.err(`Error: the definition was refused, nothing was saved:\n  ${error.details.join('\n  ')}`);
      return EXIT.failure;
    }
    if (error instanceof ApiError) {
      io.err(`Error: ${error.message}`);
      return EXIT.failure;
    }
    throw error;
  }
}

function describePreview(preview: Awaited<ReturnType<CostCategoriesService['preview']>>): string {
  const percent = (share: number) => `${Number((share * 100).toFixed(2))}%`;
  return [
    `${preview.key}, ${preview.window.from} to ${preview.window.to}, in ${preview.currency}: unallocated ${percent(preview.unallocatedShare.before)} → ${percent(preview.unallocatedShare.after)}`,
    formatTable(
      ['VALUE', 'AMORTIZED COST', 'ROWS'],
      preview.values.map((v) => [v.value, String(v.amortizedCost), String(v.rows)]),
    ),
  ].join('\n');
}
