-- import-journal.journal-swapping: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
-- parameters:
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   integration_ids = ["aws-main"]
--   partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
--   backed_up_partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
--   backup_table = "focus_import_mwvps5c0_7f3e2a1b_backup"
--   staging_table = "focus_import_mwvps5c0_7f3e2a1b"
--   lease_seconds = 120
--   step_hosts = ["",""]
--   step_partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
--   step_backed_up = [1,0]
INSERT INTO cost_insights.import_journal (import_id, organization_id, integration_ids, partition_ids, backed_up_partition_ids, backup_table, staging_table, state, lease_expires_at, updated_at, steps) SELECT
    {import_id:String},
    {organization_id:UUID},
    {integration_ids:Array(String)},
    {partition_ids:Array(String)},
    {backed_up_partition_ids:Array(String)},
    {backup_table:String},
    {staging_table:String},
    'swapping',
    now64(3) + toIntervalSecond({lease_seconds:UInt32}),
    now64(6),
    arrayZip({step_hosts:Array(String)}, {step_partitions:Array(String)}, {step_backed_up:Array(UInt8)});
