-- Backups (issue 33): each run of `backup create`, and the fence between a backup and the imports' partition swaps.
-- A running backup holds a lease (renewed while it runs): an import does not start swapping while one is running,
-- and a backup starts copying only when no import is swapping, so an import is wholly in a backup or not at all
-- (src/ingest/publish-fence.ts). Versions of a run replace each other (newest updated_at).
CREATE TABLE IF NOT EXISTS {{database}}.backup_runs
(
    name              String,
    state             Enum8('running' = 1, 'created' = 2, 'failed' = 3),
    started_at        DateTime64(6, 'UTC'),
    lease_expires_at  DateTime64(3, 'UTC'),
    updated_at        DateTime64(6, 'UTC'),
    error             String DEFAULT ''
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY name;
