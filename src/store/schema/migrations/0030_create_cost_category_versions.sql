-- Rule-defined cost categories (allocation): every version of an organisation's category definitions, append-only, so
-- none is ever lost. A version is in effect from its billing month (effective_from, yyyy-MM) on; a version saved later
-- with an earlier month takes those months over (history rewritten explicitly); a deletion ends the category. Questions
-- naming a rule-defined category evaluate its rules on the rows they read (src/cost-query/cost-category-rules.ts):
-- nothing is rewritten, so an answer reads one version set or the next, never a mix.
CREATE TABLE IF NOT EXISTS {{database}}.cost_category_versions
(
    organization_id UUID,
    key             String,
    created_at      DateTime64(6, 'UTC'),
    version_id      UUID,
    effective_from  LowCardinality(String) COMMENT 'yyyy-MM: the first billing month the version is in effect for',
    -- JSON: {defaultValue, rules, splits}; '' for a deletion.
    definition      String,
    deleted         UInt8,
    -- The admin API key's id, or the email of the person signed in to the Settings pages.
    created_by      String
)
ENGINE = MergeTree
PARTITION BY organization_id
ORDER BY (organization_id, key, created_at, version_id);
