import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { SOURCE_KINDS, SourceKind, CHECK_OUTCOMES, CheckOutcome } from '../store/repositories/sources.repository';
import { INTEGRATION_ID_PATTERN, INTEGRATION_ID_RULE } from './source-location';

const KINDS_TEXT =
  "`aws-data-exports`: AWS Data Exports (a manifest per billing period lists its data files); `azure-exports`: Azure Cost Management exports (a `manifest.json` per run lists its parts and sizes); `oci-focus`: OCI daily FOCUS reports (`YYYY/MM/DD/*.csv.gz`, a month at a time once settled); `focus-files`: any folder of FOCUS files (imported whole once none changed for INGEST_SETTLE_SECONDS); `metrics-files`: business metrics' daily values as CSV `date,value[,dimension value]` (plain or .gz), a file's metric its path's first segment up to the first dot (`orders.csv`, `orders/2026-11.csv`), each metric's files loaded as one load once none changed for INGEST_SETTLE_SECONDS.";

export class CreateSourceDto {
  @ApiProperty({
    description:
      'The integration every row of the source is stored under (1 to 128 letters, digits or ._:-); re-imports replace its billing periods. For `metrics-files` it only names the source (its values belong to the metrics).',
    example: 'aws-payer-123456789012',
  })
  @IsString()
  @Matches(INTEGRATION_ID_PATTERN, { message: `integrationId: ${INTEGRATION_ID_RULE}` })
  integrationId: string;

  @ApiProperty({ enum: SOURCE_KINDS, description: KINDS_TEXT, example: 'aws-data-exports' })
  @IsIn(SOURCE_KINDS, { message: `kind: expected one of ${SOURCE_KINDS.join(', ')}` })
  kind: SourceKind;

  @ApiProperty({
    description:
      "Where the exports are: `file:///absolute/path` of a directory they are delivered or synced to, under INGEST_FILE_ROOT. `s3://` and `azure://` sources read with the service's credentials: the operator adds them (CLI `sources add`), this route answers 403.",
    example: 'file:///srv/exports/aws',
  })
  @IsString()
  @MaxLength(2048, { message: 'url: at most 2048 characters' })
  url: string;
}

export class SourceProblemDto {
  @ApiProperty({ example: '2026-11-25T06:00:00.000Z' })
  at: string;

  @ApiProperty({ enum: CHECK_OUTCOMES, example: 'incomplete' })
  outcome: CheckOutcome;

  @ApiProperty({
    description: 'In words: the file, line, column and value for a refused file, the missing parts of an incomplete delivery.',
    example: 'incomplete delivery: focus/data/BILLING_PERIOD=2026-11/focus-00002.csv.gz is missing',
  })
  message: string;
}

export class SourceStatusDto {
  @ApiProperty({ nullable: true, type: String, example: '2026-11-25T06:05:00.000Z' })
  lastCheckAt: string | null;

  @ApiProperty({ nullable: true, enum: CHECK_OUTCOMES, example: 'unchanged' })
  lastOutcome: CheckOutcome | null;

  @ApiProperty({ nullable: true, type: String, example: '2026-11-25T06:00:12.000Z' })
  lastImportAt: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The delivery imported last (its manifest, or its folder).',
    example: 'focus/metadata/BILLING_PERIOD=2026-11/focus-Manifest.json',
  })
  lastImportDelivery: string | null;

  @ApiProperty({ example: ['2026-11'] })
  lastImportBillingPeriods: string[];

  @ApiProperty({ nullable: true, type: Number, description: "Seconds from the delivery's arrival to its publication.", example: 312 })
  lastImportLagSeconds: number | null;

  @ApiProperty({ nullable: true, type: SourceProblemDto, description: 'The newest problem since the last import, or null.' })
  lastProblem: SourceProblemDto | null;
}

export class CredentialReferencesDto {
  @ApiPropertyOptional({
    description: 'Name (starting SOURCE_CREDENTIALS_) of the environment variable holding the S3 access key id or the Azure account name.',
    example: 'SOURCE_CREDENTIALS_S3_KEY_ID',
  })
  idEnv?: string;

  @ApiPropertyOptional({
    description: 'Name (starting SOURCE_CREDENTIALS_) of the environment variable holding the S3 secret or the Azure account key.',
    example: 'SOURCE_CREDENTIALS_S3_SECRET',
  })
  secretEnv?: string;

  @ApiPropertyOptional({
    description: 'Name (starting SOURCE_CREDENTIALS_) of the environment variable holding an Azure SAS token.',
    example: 'SOURCE_CREDENTIALS_AZURE_SAS',
  })
  sasTokenEnv?: string;
}

export class SourceOptionsDto {
  @ApiPropertyOptional({
    description: 'S3-compatible endpoint, or the Azure storage account URL.',
    example: 'https://s3.eu-frankfurt-1.oraclecloud.com',
  })
  endpoint?: string;

  @ApiPropertyOptional({ example: 'eu-frankfurt-1' })
  region?: string;

  @ApiPropertyOptional({ description: 'Path-style S3 addressing (most on-prem servers).', example: true })
  pathStyle?: boolean;

  @ApiPropertyOptional({ type: CredentialReferencesDto, description: 'Where the worker finds the credentials: names only, never values.' })
  credentials?: CredentialReferencesDto;
}

export class SourceDto {
  @ApiProperty({ example: '3f0f6a8e-2f7d-4a59-9d0c-6f3a2b1c4d5e' })
  sourceId: string;

  @ApiProperty({ example: 'aws-payer-123456789012' })
  integrationId: string;

  @ApiProperty({ enum: SOURCE_KINDS, example: 'aws-data-exports' })
  kind: SourceKind;

  @ApiProperty({ example: 'file:///srv/exports/aws' })
  url: string;

  @ApiProperty({ type: SourceOptionsDto, description: 'For s3:// and azure:// sources (added by the operator); {} for directories.' })
  options: SourceOptionsDto;

  @ApiProperty({ example: '2026-11-25T05:55:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: SourceStatusDto })
  status: SourceStatusDto;
}

export class PeriodChangeDto {
  @ApiProperty({ example: '2026-10' })
  billingPeriod: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({
    description: 'Σ BilledCost before the import (exact decimal text; "0" if the period had none).',
    example: '10412.5500000000',
  })
  billedBefore: string;

  @ApiProperty({ example: '10398.1200000000' })
  billedAfter: string;

  @ApiProperty({ example: '9876.0000000000' })
  amortizedBefore: string;

  @ApiProperty({ example: '9861.5700000000' })
  amortizedAfter: string;
}

export class SourceCheckDto {
  @ApiProperty({ example: '2026-11-25T06:00:12.000Z' })
  checkedAt: string;

  @ApiProperty({ enum: CHECK_OUTCOMES, example: 'imported' })
  outcome: CheckOutcome;

  @ApiProperty({ example: 'focus/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json' })
  delivery: string;

  @ApiProperty({ nullable: true, type: String, example: '2026-11-25T05:55:01.000Z' })
  deliveredAt: string | null;

  @ApiProperty({ example: ['2026-10'] })
  billingPeriods: string[];

  @ApiProperty({ example: 48211 })
  rows: number;

  @ApiProperty({
    type: PeriodChangeDto,
    isArray: true,
    description: 'Per billing period and currency: the totals the import replaced and the new ones.',
  })
  changes: PeriodChangeDto[];

  @ApiProperty({ example: '' })
  message: string;
}

export class SourceRunDto {
  @ApiProperty({ description: 'True when another instance was checking this source: nothing was done here.', example: false })
  busy: boolean;

  @ApiProperty({ type: SourceCheckDto, isArray: true, description: 'What this check found and did.' })
  checks: SourceCheckDto[];

  @ApiProperty({ type: SourceDto })
  source: SourceDto;
}

export class SourceResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: SourceDto })
  data: SourceDto;
}

export class SourceListResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: SourceDto, isArray: true })
  data: SourceDto[];
}

export class SourceHistoryResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: SourceCheckDto, isArray: true, description: 'Newest first; checks that found nothing new are left out.' })
  data: SourceCheckDto[];
}

export class SourceRunResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: SourceRunDto })
  data: SourceRunDto;
}

export class HistoryQueryDto {
  @ApiPropertyOptional({ description: 'How many checks (1 to 500, default 50).', example: 50 })
  limit?: string;
}
