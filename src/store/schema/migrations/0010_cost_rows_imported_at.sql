-- When each cost row was written (an insert, a demo load, or the load of an import that a partition
-- swap then published), for the X-Data-Imported-At freshness header (src/infrastructure/result-cache/
-- data-freshness.service.ts). A part's modification time cannot tell it: merges rewrite parts.
-- Constant within an insert, so it costs next to nothing on disk.
ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS imported_at DateTime('UTC') DEFAULT now();

-- Rows stored before this migration would otherwise read the default, i.e. the time of each query:
-- they are written down as imported now, the latest time they can honestly claim to be from.
ALTER TABLE {{database}}.cost_line_items MATERIALIZE COLUMN imported_at SETTINGS mutations_sync = 2;
