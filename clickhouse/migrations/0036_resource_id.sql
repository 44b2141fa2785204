-- FOCUS ResourceId, kept per row (rows imported before, and exports without it: ''). What tells a tag key that names
-- each resource (a build or instance id: as many values as resources carry it) from one that groups them (a team):
-- the first is never suggested for activation (tag-keys.repository.ts), whose columns it would make as large as the maps.
ALTER TABLE {{database}}.cost_line_items
    ADD COLUMN IF NOT EXISTS resource_id String DEFAULT '';
