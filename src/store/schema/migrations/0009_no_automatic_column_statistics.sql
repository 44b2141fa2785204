-- requires merge tree setting: auto_statistics_types
-- ClickHouse ≥ 26.x builds column statistics for every new part by default (auto_statistics_types =
-- 'basic, uniq_v2'), and until its statistics cache catches up (refresh_statistics_interval, 300 s)
-- the planner of every query opens, reads and closes each part's statistics file: on the bench
-- estate ~2,300 file operations per query right after an import, which made 30 ms questions take
-- 110–190 ms for the first minutes. Every question here narrows by the primary key (organisation,
-- date) and the partition key, so statistics buy no pruning this table needs: new parts (inserts,
-- imports, merges) are written without them. On a server without the setting this migration is
-- skipped (and retried at the next start after an upgrade).
ALTER TABLE {{database}}.cost_line_items MODIFY SETTING auto_statistics_types = '';
