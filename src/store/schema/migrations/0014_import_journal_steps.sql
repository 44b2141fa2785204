-- An import's partition swaps as steps, each on the host holding the partition: '' for a single server, the
-- node (`s<shard>r<replica>`) on a cluster, where a partition lives on every replica of its shard and each
-- swaps it in its own local table. What recovery undoes, step by step. Rows written before this migration
-- have none: their partition_ids were all swapped on the one server.
ALTER TABLE {{database}}.import_journal ADD COLUMN IF NOT EXISTS steps Array(Tuple(host String, partition_id String, backed_up UInt8)) DEFAULT [];
