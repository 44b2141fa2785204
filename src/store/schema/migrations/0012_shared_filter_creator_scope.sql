-- The data scope of the key that created a shared filter (its canonical JSON, '' for a key that sees its
-- whole organisation): a key with a data scope reads only filters created under the very same scope.
ALTER TABLE {{database}}.shared_filters ADD COLUMN IF NOT EXISTS creator_data_scope String DEFAULT '';
