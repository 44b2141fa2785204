-- installation-secrets.secret: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by query
-- parameters:
--   name = "session-signing"
SELECT secret
FROM cost_insights.installation_secrets
WHERE name = {name:String}
ORDER BY
    created_at ASC,
    secret ASC
LIMIT 1;

-- statement 2 of 3, sent by insert
-- settings:
--   insert_deduplication_token = "installation-secret:session-signing"
INSERT INTO cost_insights.installation_secrets (name, secret, created_at) FORMAT JSONEachRow;

-- statement 3 of 3, sent by query
-- parameters:
--   name = "session-signing"
SELECT secret
FROM cost_insights.installation_secrets
WHERE name = {name:String}
ORDER BY
    created_at ASC,
    secret ASC
LIMIT 1;
