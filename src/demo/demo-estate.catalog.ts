/**
 * The demo estate: a fictional company ("Acme") running a multi-cloud estate on AWS, Azure, GCP
 * and Oracle Cloud. Names, regions, instance types and usage types follow each provider's own
 * billing exports, so every dimension of the API shows plausible values.
 */

export type CloudName = 'AWS' | 'Azure' | 'GCP' | 'Oracle';

export type Environment = 'production' | 'staging' | 'development' | 'sandbox' | 'shared';

/** How usage covered by a commitment is billed; see the generator for the money rules. */
export type CommitmentKind = 'savingsPlan' | 'reservation';

export interface CloudProfile {
  /** Enterprise agreement discount on net spend (AWS EDP, Azure EA, ...). */
  enterpriseDiscountRate: number;
  /** Reseller/partner discount on net spend. */
  partnerDiscountRate: number;
  /** Monthly sales tax / VAT charged as a share of the account's spend. */
  taxRate: number;
  /** Region codes the cloud bills in. */
  regions: readonly string[];
  /** The currency the cloud's integration bills in (ISO 4217). */
  billingCurrency: string;
  /**
   * The cloud's price list in that currency, as a factor of the catalogue's USD list prices: a provider sets its
   * local-currency prices from USD at a rate of its own and keeps them for months (Azure's EUR price sheet), so
   * the EUR amounts are prices of their own, not converted at each day's market rate.
   */
  priceListFactor: number;
  /** Who issues the cloud's invoices (FOCUS InvoiceIssuerName), its billing account, and its invoice id prefix. */
  invoiceIssuer: string;
  billingAccountId: string;
  invoicePrefix: string;
}

export const CLOUDS: Record<CloudName, CloudProfile> = {
  AWS: {
    billingCurrency: 'USD',
    priceListFactor: 1,
    invoiceIssuer: 'Amazon Web Services, Inc.',
    billingAccountId: '999988887777',
    invoicePrefix: 'EUINUS',
    enterpriseDiscountRate: 0.06,
    partnerDiscountRate: 0,
    taxRate: 0.04,
    regions: ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2', 'ap-northeast-1'],
  },
  Azure: {
    billingCurrency: 'EUR',
    priceListFactor: 0.93,
    invoiceIssuer: 'Microsoft Ireland Operations Ltd',
    billingAccountId: '8611537',
    invoicePrefix: 'E0',
    enterpriseDiscountRate: 0.045,
    partnerDiscountRate: 0,
    taxRate: 0.05,
    regions: ['eastus', 'westeurope', 'northeurope', 'uksouth'],
  },
  GCP: {
    billingCurrency: 'USD',
    priceListFactor: 1,
    invoiceIssuer: 'Google Cloud EMEA Limited',
    billingAccountId: '01A2B3-C4D5E6-F7A8B9',
    invoicePrefix: 'GC',
    enterpriseDiscountRate: 0.03,
    partnerDiscountRate: 0.025, // bought through a reseller
    taxRate: 0.03,
    regions: ['us-central1', 'europe-west1', 'asia-southeast1'],
  },
  Oracle: {
    billingCurrency: 'USD',
    priceListFactor: 1,
    invoiceIssuer: 'Oracle America, Inc.',
    billingAccountId: 'ocid1.tenancy.oc1..acme',
    invoicePrefix: 'OCI-',
    enterpriseDiscountRate: 0.1,
    partnerDiscountRate: 0,
    taxRate: 0.03,
    regions: ['us-ashburn-1', 'eu-frankfurt-1'],
  },
};

/** AWS usage types carry a region prefix (none in us-east-1). */
export const AWS_REGION_PREFIX: Record<string, string> = {
  'us-east-1': '',
  'us-west-2': 'USW2-',
  'eu-west-1': 'EU-',
  'eu-central-1': 'EUC1-',
  'ap-southeast-2': 'APS2-',
  'ap-northeast-1': 'APN1-',
};

/** GCP SKU descriptions name the continent, not the region. */
export const GCP_REGION_AREA: Record<string, string> = {
  'us-central1': 'Americas',
  'europe-west1': 'EMEA',
  'asia-southeast1': 'APAC',
};

export interface ServiceSpec {
  cloud: CloudName;
  service: string;
  family: string;
  layer: 'Infrastructure' | 'Platform' | 'Shared';
  /** Typical on-demand cost of one usage stream, USD per day, before account scale. */
  dailyCost: number;
  /** Instance types (one per stream); `{it}` in a usage type stands for the stream's type. */
  instanceTypes?: readonly string[];
  /** Usage types; `{rp}` is the AWS region prefix, `{area}` the GCP area, `{it}` the instance type. */
  usageTypes: readonly string[];
  /** Usage this service bills without a region ('global' for edge services). */
  region?: 'global';
  commitment?: { kind: CommitmentKind; savingsRate: number; upfrontShare: number };
  /** Share of streams running on spot / preemptible capacity, and the saving on them. */
  spot?: { share: number; savingsRate: number };
  /** Negotiated product-level price reduction (private pricing). */
  productDiscountRate?: number;
  /** Automatic discounts: GCP sustained use, free tiers. */
  otherSavingsRate?: number;
  /** Usage falls on weekends by this share beyond the environment's own pattern (batch, office hours). */
  weekendDrop?: number;
}

const aws = (spec: Omit<ServiceSpec, 'cloud'>): ServiceSpec => ({ cloud: 'AWS', ...spec });
const azure = (spec: Omit<ServiceSpec, 'cloud'>): ServiceSpec => ({ cloud: 'Azure', ...spec });
const gcp = (spec: Omit<ServiceSpec, 'cloud'>): ServiceSpec => ({ cloud: 'GCP', ...spec });
const oci = (spec: Omit<ServiceSpec, 'cloud'>): ServiceSpec => ({ cloud: 'Oracle', ...spec });

const AWS_SAVINGS_PLAN = { kind: 'savingsPlan', savingsRate: 0.31, upfrontShare: 0.5 } as const;
const AWS_RESERVED = { kind: 'reservation', savingsRate: 0.4, upfrontShare: 1 } as const;
const AZURE_RESERVED = { kind: 'reservation', savingsRate: 0.38, upfrontShare: 1 } as const;
const GCP_COMMITTED_USE = { kind: 'reservation', savingsRate: 0.37, upfrontShare: 1 } as const;

/** Every service of the estate, keyed by a short handle used by the accounts' workloads. */
export const SERVICES = {
  // ---- AWS
  ec2: aws({
    service: 'Amazon EC2',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 95,
    instanceTypes: ['m6i.xlarge', 'm6i.2xlarge', 'c6i.2xlarge', 'r6i.xlarge', 'm7g.large', 'c7g.4xlarge', 't3.medium'],
    usageTypes: ['{rp}BoxUsage:{it}'],
    commitment: AWS_SAVINGS_PLAN,
  }),
  ec2Spot: aws({
    service: 'Amazon EC2',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 80,
    instanceTypes: ['c6i.2xlarge', 'm6i.2xlarge', 'c7g.4xlarge', 'r6i.2xlarge'],
    usageTypes: ['{rp}SpotUsage:{it}'],
    spot: { share: 1, savingsRate: 0.64 },
  }),
  ec2Gpu: aws({
    service: 'Amazon EC2',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 260,
    instanceTypes: ['g5.2xlarge', 'g5.12xlarge', 'p4d.24xlarge'],
    usageTypes: ['{rp}BoxUsage:{it}'],
    commitment: AWS_SAVINGS_PLAN,
  }),
  ebs: aws({
    service: 'Amazon Elastic Block Store',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 28,
    usageTypes: ['{rp}EBS:VolumeUsage.gp3', '{rp}EBS:VolumeUsage.io2', '{rp}EBS:SnapshotUsage'],
  }),
  s3: aws({
    service: 'Amazon S3',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 35,
    usageTypes: ['{rp}TimedStorage-ByteHrs', '{rp}TimedStorage-INT-FA-ByteHrs', '{rp}Requests-Tier1', '{rp}TimedStorage-GlacierByteHrs'],
    productDiscountRate: 0.05,
  }),
  rds: aws({
    service: 'Amazon RDS',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 120,
    instanceTypes: ['db.r6g.xlarge', 'db.r6g.2xlarge', 'db.m6g.large', 'db.r7g.4xlarge'],
    usageTypes: ['{rp}Multi-AZUsage:{it}', '{rp}InstanceUsage:{it}'],
    commitment: AWS_RESERVED,
  }),
  aurora: aws({
    service: 'Amazon Aurora',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 140,
    instanceTypes: ['db.r6g.2xlarge', 'db.r6g.4xlarge'],
    usageTypes: ['{rp}InstanceUsage:{it}', '{rp}Aurora:StorageIOUsage'],
    commitment: AWS_RESERVED,
  }),
  dynamodb: aws({
    service: 'Amazon DynamoDB',
    family: 'Database',
    layer: 'Platform',
    dailyCost: 45,
    usageTypes: ['{rp}ReadCapacityUnit-Hrs', '{rp}WriteCapacityUnit-Hrs', '{rp}TimedStorage-ByteHrs'],
  }),
  elasticache: aws({
    service: 'Amazon ElastiCache',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 55,
    instanceTypes: ['cache.r6g.large', 'cache.m6g.xlarge'],
    usageTypes: ['{rp}NodeUsage:{it}'],
    commitment: AWS_RESERVED,
  }),
  lambda: aws({
    service: 'AWS Lambda',
    family: 'Serverless',
    layer: 'Platform',
    dailyCost: 18,
    usageTypes: ['{rp}Lambda-GB-Second', '{rp}Request', '{rp}Lambda-GB-Second-ARM'],
    otherSavingsRate: 0.02, // free tier
  }),
  cloudfront: aws({
    service: 'Amazon CloudFront',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 60,
    usageTypes: ['US-DataTransfer-Out-Bytes', 'EU-DataTransfer-Out-Bytes', 'US-Requests-Tier1', 'AP-DataTransfer-Out-Bytes'],
    region: 'global',
    productDiscountRate: 0.15,
  }),
  elb: aws({
    service: 'Elastic Load Balancing',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 14,
    usageTypes: ['{rp}LoadBalancerUsage', '{rp}LCUUsage'],
  }),
  vpc: aws({
    service: 'Amazon VPC',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 24,
    usageTypes: ['{rp}NatGateway-Hours', '{rp}NatGateway-Bytes', '{rp}TransitGateway-Bytes', '{rp}PublicIPv4:InUseAddress'],
  }),
  dataTransfer: aws({
    service: 'AWS Data Transfer',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 30,
    usageTypes: ['{rp}DataTransfer-Out-Bytes', '{rp}DataTransfer-Regional-Bytes', '{rp}DataTransfer-xAZ-In-Bytes'],
  }),
  route53: aws({
    service: 'Amazon Route 53',
    family: 'Networking',
    layer: 'Shared',
    dailyCost: 4,
    usageTypes: ['HostedZone', 'DNS-Queries'],
    region: 'global',
  }),
  directConnect: aws({
    service: 'AWS Direct Connect',
    family: 'Networking',
    layer: 'Shared',
    dailyCost: 40,
    usageTypes: ['{rp}DirectConnect-Port-Hours:10G', '{rp}DataXfer-Out:dc.1'],
  }),
  eks: aws({
    service: 'Amazon EKS',
    family: 'Containers',
    layer: 'Platform',
    dailyCost: 9,
    usageTypes: ['{rp}AmazonEKS-Hours:perCluster'],
  }),
  ecr: aws({
    service: 'Amazon ECR',
    family: 'Containers',
    layer: 'Platform',
    dailyCost: 5,
    usageTypes: ['{rp}TimedStorage-ByteHrs'],
  }),
  redshift: aws({
    service: 'Amazon Redshift',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 210,
    instanceTypes: ['ra3.4xlarge', 'ra3.16xlarge'],
    usageTypes: ['{rp}Node:{it}'],
    commitment: AWS_RESERVED,
  }),
  athena: aws({
    service: 'Amazon Athena',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 38,
    usageTypes: ['{rp}DataScannedInTB'],
    weekendDrop: 0.5,
  }),
  glue: aws({
    service: 'AWS Glue',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 48,
    usageTypes: ['{rp}ETL-DPU-Hour', '{rp}Crawler-DPU-Hour'],
  }),
  emr: aws({
    service: 'Amazon EMR',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 70,
    instanceTypes: ['m6g.2xlarge', 'r6g.4xlarge'],
    usageTypes: ['{rp}ElasticMapReduce-Instance:{it}'],
    weekendDrop: 0.35,
  }),
  msk: aws({
    service: 'Amazon MSK',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 65,
    instanceTypes: ['kafka.m5.large', 'kafka.m7g.xlarge'],
    usageTypes: ['{rp}Kafka.{it}'],
  }),
  opensearch: aws({
    service: 'Amazon OpenSearch Service',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 85,
    instanceTypes: ['r6g.large.search', 'm6g.xlarge.search'],
    usageTypes: ['{rp}ESInstance:{it}'],
  }),
  sqs: aws({
    service: 'Amazon SQS',
    family: 'Application Integration',
    layer: 'Platform',
    dailyCost: 6,
    usageTypes: ['{rp}Requests-RBP', '{rp}Requests-FIFO'],
  }),
  sagemaker: aws({
    service: 'Amazon SageMaker',
    family: 'AI/ML',
    layer: 'Platform',
    dailyCost: 150,
    instanceTypes: ['ml.g5.2xlarge', 'ml.m5.xlarge', 'ml.p3.2xlarge'],
    usageTypes: ['{rp}Hosting:{it}', '{rp}Train:{it}', '{rp}Notebk:{it}'],
    weekendDrop: 0.25,
  }),
  bedrock: aws({
    service: 'Amazon Bedrock',
    family: 'AI/ML',
    layer: 'Platform',
    dailyCost: 90,
    usageTypes: ['{rp}Claude3.5Sonnet-input-tokens', '{rp}Claude3.5Sonnet-output-tokens', '{rp}TitanEmbeddings-input-tokens'],
  }),
  cloudwatch: aws({
    service: 'Amazon CloudWatch',
    family: 'Management',
    layer: 'Shared',
    dailyCost: 16,
    usageTypes: ['{rp}CW:MetricMonitorUsage', '{rp}DataProcessing-Bytes', '{rp}TimedStorage-ByteHrs'],
  }),
  cloudtrail: aws({
    service: 'AWS CloudTrail',
    family: 'Management',
    layer: 'Shared',
    dailyCost: 7,
    usageTypes: ['{rp}PaidEventsRecorded', '{rp}DataEventsRecorded'],
  }),
  config: aws({
    service: 'AWS Config',
    family: 'Management',
    layer: 'Shared',
    dailyCost: 6,
    usageTypes: ['{rp}ConfigurationItemRecorded', '{rp}ConfigRuleEvaluations'],
  }),
  guardduty: aws({
    service: 'Amazon GuardDuty',
    family: 'Security',
    layer: 'Shared',
    dailyCost: 12,
    usageTypes: ['{rp}PaidEventsAnalyzed', '{rp}PaidS3DataEventsAnalyzed'],
  }),
  kms: aws({
    service: 'AWS Key Management Service',
    family: 'Security',
    layer: 'Shared',
    dailyCost: 3,
    usageTypes: ['{rp}KMS-Requests', '{rp}KMS-Keys'],
  }),
  // ---- Azure
  azureVm: azure({
    service: 'Virtual Machines',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 90,
    instanceTypes: ['Standard_D4s_v5', 'Standard_D8s_v5', 'Standard_E8s_v5', 'Standard_F8s_v2', 'Standard_B2ms'],
    usageTypes: ['{it}'],
    commitment: AZURE_RESERVED,
  }),
  azureSpotVm: azure({
    service: 'Virtual Machines',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 50,
    instanceTypes: ['Standard_D8s_v5', 'Standard_F16s_v2'],
    usageTypes: ['{it} Spot'],
    spot: { share: 1, savingsRate: 0.7 },
  }),
  managedDisks: azure({
    service: 'Managed Disks',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 22,
    usageTypes: ['P30 LRS Disk', 'E10 LRS Disk', 'Premium SSD v2 Capacity'],
  }),
  blobStorage: azure({
    service: 'Blob Storage',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 26,
    usageTypes: ['Hot LRS Data Stored', 'Cool GRS Data Stored', 'Hot LRS Write Operations', 'Archive LRS Data Stored'],
  }),
  azureSql: azure({
    service: 'Azure SQL Database',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 110,
    instanceTypes: ['GP_Gen5_8', 'BC_Gen5_4', 'GP_S_Gen5_2'],
    usageTypes: ['vCore'],
    commitment: AZURE_RESERVED,
  }),
  cosmosDb: azure({
    service: 'Azure Cosmos DB',
    family: 'Database',
    layer: 'Platform',
    dailyCost: 60,
    usageTypes: ['100 RU/s', 'Data Stored', 'Autoscale - 100 RU/s'],
  }),
  redisCache: azure({
    service: 'Azure Cache for Redis',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 32,
    instanceTypes: ['P1', 'C3'],
    usageTypes: ['{it} Cache Instance'],
  }),
  aks: azure({
    service: 'Azure Kubernetes Service',
    family: 'Containers',
    layer: 'Platform',
    dailyCost: 12,
    usageTypes: ['Uptime SLA', 'Standard Long Term Support'],
  }),
  appService: azure({
    service: 'Azure App Service',
    family: 'Compute',
    layer: 'Platform',
    dailyCost: 30,
    instanceTypes: ['P1 v3', 'P2 v3'],
    usageTypes: ['{it} App'],
  }),
  functions: azure({
    service: 'Azure Functions',
    family: 'Serverless',
    layer: 'Platform',
    dailyCost: 8,
    usageTypes: ['Total Executions', 'Execution Time'],
    otherSavingsRate: 0.03, // free grant
  }),
  azureBandwidth: azure({
    service: 'Bandwidth',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 18,
    usageTypes: ['Standard Data Transfer Out', 'Inter-Region Data Transfer Out'],
  }),
  loadBalancer: azure({
    service: 'Load Balancer',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 9,
    usageTypes: ['Standard Data Processed', 'Standard Included LB Rules and Outbound Rules'],
  }),
  frontDoor: azure({
    service: 'Azure Front Door',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 20,
    usageTypes: ['Standard Data Transfer Out', 'Standard Requests'],
    region: 'global',
  }),
  azureMonitor: azure({
    service: 'Azure Monitor',
    family: 'Management',
    layer: 'Shared',
    dailyCost: 24,
    usageTypes: ['Analytics Logs Data Ingestion', 'Data Retention', 'Metrics ingestion'],
  }),
  synapse: azure({
    service: 'Azure Synapse Analytics',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 140,
    usageTypes: ['vCore', 'Data Processed', 'DW1000c'],
    weekendDrop: 0.4,
  }),
  azureOpenAi: azure({
    service: 'Azure OpenAI Service',
    family: 'AI/ML',
    layer: 'Platform',
    dailyCost: 75,
    usageTypes: ['gpt-4o-0806-Inp-glbl Tokens', 'gpt-4o-0806-Outp-glbl Tokens', 'text-embedding-3-large Tokens'],
    weekendDrop: 0.5,
  }),
  defender: azure({
    service: 'Microsoft Defender for Cloud',
    family: 'Security',
    layer: 'Shared',
    dailyCost: 15,
    usageTypes: ['Standard Node', 'Standard Transactions'],
  }),
  // ---- GCP
  computeEngine: gcp({
    service: 'Compute Engine',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 85,
    instanceTypes: ['n2-standard-8', 'n2-standard-4', 'e2-standard-4', 'c3-standard-8', 'n2d-highmem-8'],
    usageTypes: ['N2 Instance Core running in {area}', 'N2 Instance Ram running in {area}'],
    commitment: GCP_COMMITTED_USE,
    otherSavingsRate: 0.08, // sustained use discounts
  }),
  computeEnginePreemptible: gcp({
    service: 'Compute Engine',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 40,
    instanceTypes: ['n2-standard-8', 'c3-standard-8'],
    usageTypes: ['Spot Preemptible N2 Instance Core running in {area}'],
    spot: { share: 1, savingsRate: 0.68 },
  }),
  gcpGpu: gcp({
    service: 'Compute Engine',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 190,
    instanceTypes: ['a2-highgpu-1g', 'g2-standard-8'],
    usageTypes: ['Nvidia Tesla A100 GPU running in {area}', 'Nvidia L4 GPU running in {area}'],
  }),
  persistentDisk: gcp({
    service: 'Compute Engine',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 16,
    usageTypes: ['SSD backed PD Capacity', 'Balanced PD Capacity', 'Storage PD Snapshot'],
  }),
  gcs: gcp({
    service: 'Cloud Storage',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 24,
    usageTypes: ['Standard Storage US Multi-region', 'Nearline Storage {area}', 'Class A Operations'],
  }),
  bigquery: gcp({
    service: 'BigQuery',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 120,
    usageTypes: ['Analysis (on-demand)', 'Active Logical Storage', 'Long Term Logical Storage', 'Enterprise Edition Slots'],
    weekendDrop: 0.45,
  }),
  dataflow: gcp({
    service: 'Dataflow',
    family: 'Analytics',
    layer: 'Platform',
    dailyCost: 45,
    usageTypes: ['Dataflow Streaming vCPU Time', 'Dataflow Batch Shuffle Data Processed'],
  }),
  pubsub: gcp({
    service: 'Pub/Sub',
    family: 'Application Integration',
    layer: 'Platform',
    dailyCost: 10,
    usageTypes: ['Message Delivery Basic', 'Topic Message Retention'],
  }),
  gke: gcp({
    service: 'Google Kubernetes Engine',
    family: 'Containers',
    layer: 'Platform',
    dailyCost: 20,
    usageTypes: ['Autopilot Pod mCPU Requests', 'Autopilot Pod Memory Requests', 'Regional Kubernetes Clusters'],
  }),
  cloudSql: gcp({
    service: 'Cloud SQL',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 70,
    instanceTypes: ['db-custom-4-16384', 'db-custom-8-32768'],
    usageTypes: ['Cloud SQL for PostgreSQL: Regional - vCPU in {area}', 'Cloud SQL for PostgreSQL: Regional - RAM in {area}'],
  }),
  cloudRun: gcp({
    service: 'Cloud Run',
    family: 'Serverless',
    layer: 'Platform',
    dailyCost: 9,
    usageTypes: ['CPU Allocation Time', 'Memory Allocation Time', 'Requests'],
    otherSavingsRate: 0.04, // free tier
  }),
  gcpNetworking: gcp({
    service: 'Networking',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 20,
    usageTypes: ['Network Internet Egress from {area} to Americas', 'Cloud NAT Gateway Uptime', 'Network Inter Zone Egress'],
  }),
  cloudLogging: gcp({
    service: 'Cloud Logging',
    family: 'Management',
    layer: 'Shared',
    dailyCost: 11,
    usageTypes: ['Log Storage cost', 'Log Volume'],
  }),
  vertexAi: gcp({
    service: 'Vertex AI',
    family: 'AI/ML',
    layer: 'Platform',
    dailyCost: 110,
    instanceTypes: ['n1-standard-8', 'a2-highgpu-1g'],
    usageTypes: ['Online Prediction {it} running in {area}', 'Custom Training {it} running in {area}'],
  }),
  // ---- Oracle Cloud Infrastructure
  ociCompute: oci({
    service: 'OCI Compute',
    family: 'Compute',
    layer: 'Infrastructure',
    dailyCost: 70,
    instanceTypes: ['VM.Standard.E4.Flex', 'VM.Standard3.Flex', 'BM.Standard.E4.128'],
    usageTypes: ['Compute - Standard - E4 - OCPU', 'Compute - Standard - E4 - Memory'],
  }),
  ociAutonomousDb: oci({
    service: 'OCI Autonomous Database',
    family: 'Database',
    layer: 'Infrastructure',
    dailyCost: 180,
    usageTypes: ['Oracle Autonomous Transaction Processing - ECPU', 'Autonomous Database Storage'],
  }),
  ociObjectStorage: oci({
    service: 'OCI Object Storage',
    family: 'Storage',
    layer: 'Infrastructure',
    dailyCost: 12,
    usageTypes: ['Object Storage - Storage', 'Archive Storage'],
  }),
  ociNetworking: oci({
    service: 'OCI Networking',
    family: 'Networking',
    layer: 'Infrastructure',
    dailyCost: 9,
    usageTypes: ['FastConnect 1 Gbps', 'Outbound Data Transfer Zone 1'],
  }),
} as const satisfies Record<string, ServiceSpec>;

export type ServiceKey = keyof typeof SERVICES;

/** A share of an account's workload on one service: `streams` independent usage lines. */
export interface Workload {
  service: ServiceKey;
  streams: number;
  /** Cost multiplier on the service's typical daily cost. */
  scale?: number;
  /** The usage starts this many days before the end of the data (a new product, a migration target). */
  startsDaysAgo?: number;
  /** The usage stops this many days before the end (decommissioned, migrated away). */
  endsDaysAgo?: number;
  /** A run-away cost incident: multiplier during a window of days before the end. */
  incident?: { fromDaysAgo: number; toDaysAgo: number; factor: number };
}

export interface DemoAccount {
  cloud: CloudName;
  /** AWS account id, Azure subscription id, GCP project id, OCI compartment OCID. */
  id: string;
  name: string;
  integrationId: string;
  environment: Environment;
  team: string;
  costCenter: string;
  /** Cost category 'Business Unit'; sandbox accounts have none (their rows show as not set). */
  businessUnit?: string;
  regions: readonly string[];
  applications: readonly string[];
  /** Legacy tagging convention ('production' rather than 'prod'), as an acquired company would have. */
  legacyTags?: boolean;
  workloads: readonly Workload[];
}

export const INTEGRATIONS: Record<CloudName, string> = {
  AWS: 'aws-cur-main',
  Azure: 'azure-ea-export',
  GCP: 'gcp-billing-export',
  Oracle: 'oci-cost-reports',
};
/** A company acquired last year still reports through its own CUR export. */
export const AWS_ACQUIRED_INTEGRATION = 'aws-cur-acquired';

export const ACCOUNTS: readonly DemoAccount[] = [
  {
    cloud: 'AWS',
    id: '418273659012',
    name: 'prod-payments',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'payments',
    costCenter: 'CC-1001',
    businessUnit: 'Payments',
    regions: ['us-east-1', 'eu-west-1'],
    applications: ['payments-api', 'payments-ledger', 'fraud-scoring'],
    workloads: [
      { service: 'ec2', streams: 6, scale: 1.3 },
      { service: 'ebs', streams: 3 },
      { service: 'rds', streams: 4, scale: 1.4 },
      { service: 'aurora', streams: 2 },
      { service: 'elasticache', streams: 2 },
      { service: 'dynamodb', streams: 2 },
      { service: 's3', streams: 3 },
      { service: 'lambda', streams: 2 },
      { service: 'elb', streams: 2 },
      { service: 'vpc', streams: 2 },
      { service: 'dataTransfer', streams: 2 },
      { service: 'sqs', streams: 1 },
      { service: 'cloudwatch', streams: 2 },
      { service: 'kms', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '502981346775',
    name: 'prod-checkout',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'checkout',
    costCenter: 'CC-1002',
    businessUnit: 'Commerce',
    regions: ['us-east-1', 'us-west-2'],
    applications: ['checkout-api', 'cart-service', 'pricing-engine'],
    workloads: [
      { service: 'ec2', streams: 6, scale: 1.1 },
      { service: 'ec2Spot', streams: 2 },
      { service: 'ebs', streams: 2 },
      { service: 'aurora', streams: 2, scale: 1.2 },
      { service: 'elasticache', streams: 2 },
      { service: 'dynamodb', streams: 2, scale: 1.3 },
      { service: 's3', streams: 2 },
      { service: 'cloudfront', streams: 3, scale: 1.4 },
      { service: 'lambda', streams: 3 },
      { service: 'elb', streams: 2 },
      { service: 'dataTransfer', streams: 2 },
      { service: 'cloudwatch', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '739104582266',
    name: 'prod-search',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'search',
    costCenter: 'CC-1003',
    businessUnit: 'Commerce',
    regions: ['us-east-1'],
    applications: ['search-api', 'catalog-indexer'],
    workloads: [
      { service: 'opensearch', streams: 4, scale: 1.3 },
      { service: 'ec2', streams: 3 },
      { service: 'ebs', streams: 2 },
      { service: 's3', streams: 1 },
      { service: 'msk', streams: 2 },
      { service: 'lambda', streams: 1 },
      { service: 'cloudwatch', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '284610937455',
    name: 'data-platform',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'data-engineering',
    costCenter: 'CC-2001',
    businessUnit: 'Data & Analytics',
    regions: ['us-east-1', 'eu-central-1'],
    applications: ['data-lake', 'etl-pipelines', 'bi-warehouse'],
    workloads: [
      { service: 's3', streams: 4, scale: 2.2 },
      { service: 'redshift', streams: 2, scale: 1.2 },
      {
        service: 'athena',
        streams: 3,
        scale: 1.1,
        // A mis-partitioned query scanned the whole lake for nine days: inside the anomaly scan's default 90 days.
        incident: { fromDaysAgo: 44, toDaysAgo: 36, factor: 4.5 },
      },
      { service: 'glue', streams: 3 },
      { service: 'emr', streams: 3 },
      { service: 'ec2Spot', streams: 3, scale: 1.2 },
      { service: 'msk', streams: 1 },
      { service: 'dataTransfer', streams: 1 },
      { service: 'cloudwatch', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '615208473391',
    name: 'ml-platform',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'ml',
    costCenter: 'CC-2002',
    businessUnit: 'Data & Analytics',
    regions: ['us-west-2', 'us-east-1'],
    applications: ['recommendations', 'genai-assistant', 'feature-store'],
    workloads: [
      { service: 'sagemaker', streams: 4 },
      { service: 'ec2Gpu', streams: 3 },
      { service: 'bedrock', streams: 3, startsDaysAgo: 160, scale: 1.3 },
      { service: 's3', streams: 2 },
      { service: 'dynamodb', streams: 1 },
      { service: 'ebs', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '927364015588',
    name: 'platform-eks-prod',
    integrationId: INTEGRATIONS.AWS,
    environment: 'production',
    team: 'platform',
    costCenter: 'CC-3001',
    businessUnit: 'Platform',
    regions: ['us-east-1', 'eu-west-1'],
    applications: ['shared-k8s', 'ci-runners', 'observability'],
    workloads: [
      { service: 'eks', streams: 3 },
      { service: 'ec2', streams: 5, scale: 1.2 },
      { service: 'ec2Spot', streams: 4 },
      { service: 'ebs', streams: 2 },
      { service: 'ecr', streams: 1 },
      { service: 'elb', streams: 2 },
      { service: 'vpc', streams: 2 },
      { service: 'cloudwatch', streams: 2 },
    ],
  },
  {
    cloud: 'AWS',
    id: '340918276652',
    name: 'staging-shared',
    integrationId: INTEGRATIONS.AWS,
    environment: 'staging',
    team: 'platform',
    costCenter: 'CC-3002',
    businessUnit: 'Platform',
    regions: ['us-east-1'],
    applications: ['checkout-api', 'payments-api', 'search-api'],
    workloads: [
      { service: 'ec2', streams: 5, scale: 0.5 },
      { service: 'rds', streams: 2, scale: 0.4 },
      { service: 'eks', streams: 1 },
      { service: 's3', streams: 1, scale: 0.4 },
      { service: 'elb', streams: 1 },
      { service: 'lambda', streams: 1, scale: 0.5 },
    ],
  },
  {
    cloud: 'AWS',
    id: '158402937710',
    name: 'dev-sandbox-01',
    integrationId: INTEGRATIONS.AWS,
    environment: 'sandbox',
    team: 'engineering',
    costCenter: 'CC-9001',
    regions: ['us-east-1', 'us-west-2'],
    applications: ['experiments'],
    workloads: [
      { service: 'ec2', streams: 4, scale: 0.35 },
      // An old-generation fleet retired after the move to Graviton.
      { service: 'ec2Gpu', streams: 1, scale: 0.5, endsDaysAgo: 200 },
      { service: 's3', streams: 1, scale: 0.2 },
      { service: 'lambda', streams: 1, scale: 0.3 },
      { service: 'bedrock', streams: 1, scale: 0.2, startsDaysAgo: 140 },
    ],
  },
  {
    cloud: 'AWS',
    id: '873015264409',
    name: 'security-audit',
    integrationId: INTEGRATIONS.AWS,
    environment: 'shared',
    team: 'security',
    costCenter: 'CC-4001',
    businessUnit: 'Corporate IT',
    regions: ['us-east-1', 'eu-west-1'],
    applications: ['siem', 'compliance'],
    workloads: [
      { service: 'guardduty', streams: 2, scale: 1.5 },
      { service: 'cloudtrail', streams: 2 },
      { service: 'config', streams: 2 },
      { service: 'kms', streams: 1 },
      { service: 's3', streams: 1, scale: 0.6 },
    ],
  },
  {
    cloud: 'AWS',
    id: '206739184453',
    name: 'network-hub',
    integrationId: INTEGRATIONS.AWS,
    environment: 'shared',
    team: 'network',
    costCenter: 'CC-3003',
    businessUnit: 'Platform',
    regions: ['us-east-1', 'eu-west-1'],
    applications: ['transit', 'dns'],
    workloads: [
      { service: 'vpc', streams: 3, scale: 1.8 },
      { service: 'directConnect', streams: 2 },
      { service: 'route53', streams: 2 },
      { service: 'dataTransfer', streams: 2, scale: 1.5 },
    ],
  },
  {
    cloud: 'AWS',
    id: '661093827514',
    name: 'log-archive',
    integrationId: INTEGRATIONS.AWS,
    environment: 'shared',
    team: 'security',
    costCenter: 'CC-4001',
    businessUnit: 'Corporate IT',
    regions: ['us-east-1'],
    applications: ['log-archive'],
    workloads: [
      { service: 's3', streams: 2, scale: 1.4 },
      { service: 'cloudwatch', streams: 2, scale: 1.6 },
    ],
  },
  {
    cloud: 'AWS',
    id: '394857120936',
    name: 'mobile-prod',
    integrationId: AWS_ACQUIRED_INTEGRATION,
    environment: 'production',
    team: 'mobile',
    costCenter: 'CC-5001',
    businessUnit: 'Consumer',
    regions: ['ap-southeast-2', 'ap-northeast-1'],
    applications: ['mobile-bff', 'push-notifications'],
    legacyTags: true,
    workloads: [
      { service: 'ec2', streams: 4, scale: 0.9 },
      { service: 'rds', streams: 2 },
      { service: 'dynamodb', streams: 1 },
      { service: 'cloudfront', streams: 2 },
      { service: 'lambda', streams: 2 },
      { service: 's3', streams: 1 },
      { service: 'sqs', streams: 1 },
    ],
  },
  {
    cloud: 'AWS',
    id: '394857120981',
    name: 'mobile-dev',
    integrationId: AWS_ACQUIRED_INTEGRATION,
    environment: 'development',
    team: 'mobile',
    costCenter: 'CC-5001',
    businessUnit: 'Consumer',
    regions: ['ap-southeast-2'],
    applications: ['mobile-bff'],
    legacyTags: true,
    workloads: [
      { service: 'ec2', streams: 2, scale: 0.3 },
      { service: 'rds', streams: 1, scale: 0.3 },
      { service: 'lambda', streams: 1, scale: 0.3 },
    ],
  },
  {
    cloud: 'AWS',
    id: '981230456781',
    name: 'org-management',
    integrationId: INTEGRATIONS.AWS,
    environment: 'shared',
    team: 'finops',
    costCenter: 'CC-9000',
    businessUnit: 'Corporate IT',
    regions: ['us-east-1'],
    applications: ['billing', 'organizations'],
    workloads: [
      { service: 'cloudtrail', streams: 1 },
      { service: 'config', streams: 1, scale: 0.5 },
      { service: 's3', streams: 1, scale: 0.3 },
    ],
  },
  // ---- Azure
  {
    cloud: 'Azure',
    id: '8f3c2a71-4d5e-4b8a-9c1f-2e7d6b5a4c30',
    name: 'corp-it-prod',
    integrationId: INTEGRATIONS.Azure,
    environment: 'production',
    team: 'corp-it',
    costCenter: 'CC-4002',
    businessUnit: 'Corporate IT',
    regions: ['westeurope', 'northeurope'],
    applications: ['intranet', 'identity', 'erp-integration'],
    workloads: [
      { service: 'azureVm', streams: 5 },
      { service: 'managedDisks', streams: 2 },
      { service: 'azureSql', streams: 3 },
      { service: 'appService', streams: 2 },
      { service: 'blobStorage', streams: 2 },
      { service: 'azureBandwidth', streams: 1 },
      { service: 'azureMonitor', streams: 1 },
      { service: 'defender', streams: 1 },
      { service: 'loadBalancer', streams: 1 },
    ],
  },
  {
    cloud: 'Azure',
    id: '2b9e7d14-6a3f-4c2e-8d5b-71f0a9c3e6d2',
    name: 'analytics-emea',
    integrationId: INTEGRATIONS.Azure,
    environment: 'production',
    team: 'bi',
    costCenter: 'CC-2003',
    businessUnit: 'Data & Analytics',
    regions: ['westeurope'],
    applications: ['bi-warehouse', 'finance-reporting'],
    workloads: [
      { service: 'synapse', streams: 3 },
      { service: 'blobStorage', streams: 3, scale: 1.5 },
      { service: 'azureSql', streams: 1 },
      { service: 'functions', streams: 2 },
      { service: 'azureMonitor', streams: 1 },
    ],
  },
  {
    cloud: 'Azure',
    id: 'c4a1f6e2-9b7d-4e3a-a2c5-0d8f7b6e5a91',
    name: 'aks-commerce-eu',
    integrationId: INTEGRATIONS.Azure,
    environment: 'production',
    team: 'checkout',
    costCenter: 'CC-1002',
    businessUnit: 'Commerce',
    regions: ['westeurope', 'uksouth'],
    applications: ['checkout-api', 'storefront-eu'],
    workloads: [
      { service: 'aks', streams: 2 },
      { service: 'azureVm', streams: 4, scale: 1.1 },
      { service: 'azureSpotVm', streams: 2 },
      { service: 'managedDisks', streams: 2 },
      { service: 'cosmosDb', streams: 2 },
      { service: 'redisCache', streams: 1 },
      { service: 'frontDoor', streams: 1 },
      { service: 'loadBalancer', streams: 1 },
      { service: 'azureBandwidth', streams: 1 },
    ],
  },
  {
    cloud: 'Azure',
    id: '5e8d3b92-1c4f-4a6e-b7d0-3f2a9e8c1b74',
    name: 'azure-dev-test',
    integrationId: INTEGRATIONS.Azure,
    environment: 'development',
    team: 'corp-it',
    costCenter: 'CC-4002',
    businessUnit: 'Corporate IT',
    regions: ['westeurope'],
    applications: ['intranet', 'identity'],
    workloads: [
      { service: 'azureVm', streams: 3, scale: 0.4 },
      { service: 'azureSql', streams: 1, scale: 0.3 },
      { service: 'appService', streams: 1, scale: 0.4 },
      { service: 'blobStorage', streams: 1, scale: 0.3 },
    ],
  },
  {
    cloud: 'Azure',
    id: '9a6c4e1b-7f3d-4b8e-8e2a-5c0d9f7b3a16',
    name: 'ai-innovation-lab',
    integrationId: INTEGRATIONS.Azure,
    environment: 'development',
    team: 'ml',
    costCenter: 'CC-2002',
    businessUnit: 'Data & Analytics',
    regions: ['eastus'],
    applications: ['genai-assistant'],
    workloads: [
      { service: 'azureOpenAi', streams: 3, startsDaysAgo: 220 },
      { service: 'functions', streams: 1, startsDaysAgo: 220 },
      { service: 'cosmosDb', streams: 1, scale: 0.4, startsDaysAgo: 220 },
    ],
  },
  // ---- GCP
  {
    cloud: 'GCP',
    id: 'acme-analytics-prod',
    name: 'analytics-prod',
    integrationId: INTEGRATIONS.GCP,
    environment: 'production',
    team: 'data-engineering',
    costCenter: 'CC-2001',
    businessUnit: 'Data & Analytics',
    regions: ['us-central1', 'europe-west1'],
    applications: ['marketing-analytics', 'clickstream'],
    workloads: [
      { service: 'bigquery', streams: 4, scale: 1.3 },
      { service: 'gcs', streams: 3, scale: 1.4 },
      { service: 'dataflow', streams: 3 },
      { service: 'pubsub', streams: 2 },
      { service: 'computeEngine', streams: 2 },
      { service: 'cloudLogging', streams: 1 },
    ],
  },
  {
    cloud: 'GCP',
    id: 'acme-reco-prod-4f2a',
    name: 'recommendations-prod',
    integrationId: INTEGRATIONS.GCP,
    environment: 'production',
    team: 'recommendations',
    costCenter: 'CC-5002',
    businessUnit: 'Consumer',
    regions: ['us-central1', 'asia-southeast1'],
    applications: ['recommendations', 'personalization'],
    workloads: [
      { service: 'gke', streams: 3 },
      { service: 'computeEngine', streams: 5, scale: 1.2 },
      { service: 'computeEnginePreemptible', streams: 2 },
      { service: 'persistentDisk', streams: 2 },
      { service: 'gcpGpu', streams: 2 },
      { service: 'vertexAi', streams: 2, startsDaysAgo: 300 },
      { service: 'cloudSql', streams: 2 },
      { service: 'cloudRun', streams: 2 },
      { service: 'gcpNetworking', streams: 2 },
      { service: 'cloudLogging', streams: 1 },
    ],
  },
  {
    cloud: 'GCP',
    id: 'acme-staging-91c3',
    name: 'gcp-staging',
    integrationId: INTEGRATIONS.GCP,
    environment: 'staging',
    team: 'recommendations',
    costCenter: 'CC-5002',
    businessUnit: 'Consumer',
    regions: ['us-central1'],
    applications: ['recommendations'],
    workloads: [
      { service: 'gke', streams: 1, scale: 0.4 },
      { service: 'computeEngine', streams: 2, scale: 0.4 },
      { service: 'cloudSql', streams: 1, scale: 0.3 },
      { service: 'gcs', streams: 1, scale: 0.3 },
    ],
  },
  // ---- Oracle
  {
    cloud: 'Oracle',
    id: 'ocid1.compartment.oc1..aaaaaaaa4x7kq2mzr5tbw3nfy6hd',
    name: 'erp-legacy',
    integrationId: INTEGRATIONS.Oracle,
    environment: 'production',
    team: 'finance-systems',
    costCenter: 'CC-4003',
    businessUnit: 'Corporate IT',
    regions: ['us-ashburn-1', 'eu-frankfurt-1'],
    applications: ['oracle-erp', 'general-ledger'],
    workloads: [
      { service: 'ociAutonomousDb', streams: 2 },
      // The ERP application tier moved to Azure; its OCI compute was switched off.
      { service: 'ociCompute', streams: 3, endsDaysAgo: 75 },
      { service: 'ociObjectStorage', streams: 1 },
      { service: 'ociNetworking', streams: 1 },
    ],
  },
];

/** Tag value of `env` per environment; acquired accounts used long names. */
export const ENV_TAG: Record<Environment, { standard: string; legacy: string }> = {
  production: { standard: 'prod', legacy: 'production' },
  staging: { standard: 'staging', legacy: 'stage' },
  development: { standard: 'dev', legacy: 'development' },
  sandbox: { standard: 'sandbox', legacy: 'sandbox' },
  shared: { standard: 'shared', legacy: 'shared' },
};

/** Cost category 'Environment', as an AWS Cost Category rule set would assign it. */
export const ENVIRONMENT_CATEGORY: Record<Environment, string> = {
  production: 'Production',
  staging: 'Non-Production',
  development: 'Non-Production',
  sandbox: 'Non-Production',
  shared: 'Shared Services',
};

export const BUSINESS_UNIT_CATEGORY = 'Business Unit';
export const ENVIRONMENT_CATEGORY_KEY = 'Environment';

/** Support plans billed monthly, to the paying account, as a share of the cloud's spend. */
export const SUPPORT_PLANS: Partial<Record<CloudName, { service: string; rate: number; accountName: string }>> = {
  AWS: { service: 'AWS Support (Enterprise On-Ramp)', rate: 0.03, accountName: 'org-management' },
  Azure: { service: 'Azure Support (Professional Direct)', rate: 0.02, accountName: 'corp-it-prod' },
};

/** Promotional credits: applied monthly against one service of one account. */
export const CREDITS: readonly { accountName: string; service: ServiceKey; monthlyAmount: number; startsDaysAgo: number }[] = [
  { accountName: 'ml-platform', service: 'bedrock', monthlyAmount: 1500, startsDaysAgo: 150 },
  { accountName: 'recommendations-prod', service: 'vertexAi', monthlyAmount: 900, startsDaysAgo: 290 },
];
