-- Shared filters per creating key (issue 35 §4), for deployments without Redis: the public id of the key that created
-- a filter ('' before this: such filters count for no key's share and only an admin key deletes them), and deletion as
-- a tombstone: a row of the same filter_id with deleted = 1 and the original's expires_at, so the TTL drops both
-- together. An insert, not a mutation: the API writes through a Distributed table on a cluster, which takes no
-- DELETE or UPDATE. Readers skip a filter_id that has a tombstone.
ALTER TABLE {{database}}.shared_filters ADD COLUMN IF NOT EXISTS creator_key_id String DEFAULT '';

ALTER TABLE {{database}}.shared_filters ADD COLUMN IF NOT EXISTS deleted UInt8 DEFAULT 0;
