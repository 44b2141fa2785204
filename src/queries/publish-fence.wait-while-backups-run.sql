-- publish-fence.wait-while-backups-run: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT name
FROM cost_insights.backup_runs
FINAL
WHERE (state = 'running') AND (lease_expires_at > now64(3))
ORDER BY name ASC;
