-- A key's data scope (src/cost-query/data-scope.ts): the canonical JSON of Filters without dates that
-- every statement for the key ANDs; '' for a key that sees its whole organisation (every key before this).
ALTER TABLE {{database}}.api_keys ADD COLUMN IF NOT EXISTS data_scope String DEFAULT '';
