-- Journal of FOCUS imports while they publish (src/ingest/import-journal.ts). Before its first
-- REPLACE PARTITION an import copies the partitions it replaces into a backup table and writes a
-- 'swapping' row; after its last swap it writes 'committed'. A 'swapping' row whose lease expired
-- belongs to a process that died mid-publish: recovery puts the backed-up partitions back and writes
-- 'rolled_back'. Every change is a newer version (updated_at) of the import's row; readers use FINAL.
-- Kept forever (one small row per import): a TTL could drop a newer version and resurrect an old one.
CREATE TABLE IF NOT EXISTS {{database}}.import_journal
(
    import_id               String COMMENT 'focus_import_<start, ms in base 36>_<random>',
    organization_id         UUID,
    integration_ids         Array(String),
    partition_ids           Array(String) COMMENT 'cost_line_items partitions the import replaces',
    backed_up_partition_ids Array(String) COMMENT 'those of them that existed before: copied to backup_table',
    backup_table            String,
    staging_table           String,
    state                   Enum8('swapping' = 1, 'committed' = 2, 'rolled_back' = 3),
    lease_expires_at        DateTime64(3, 'UTC') COMMENT 'a swapping import is presumed alive until then',
    updated_at              DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY import_id
