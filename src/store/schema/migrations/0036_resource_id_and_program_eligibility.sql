-- Two FOCUS columns kept per row (rows imported before, and exports without them: '').
--
-- ResourceId: what tells a tag key that names each resource (a build or instance id: as many values as resources
-- carry it) from one that groups them (a team); the first is never suggested for activation (tag-keys.repository.ts),
-- whose columns it would make as large as the maps.
--
-- CommitmentProgramEligibilityDetails (FOCUS 1.4), its JSON text: the commitment programs a charge is eligible for,
-- whether or not one applied. Where a row carries it, commitment coverage counts the row as eligible by it rather than
-- by its service (commitments.query.ts).
ALTER TABLE {{database}}.cost_line_items
    ADD COLUMN IF NOT EXISTS resource_id String DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_program_eligibility String DEFAULT '';
