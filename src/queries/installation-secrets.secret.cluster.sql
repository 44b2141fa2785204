-- installation-secrets.secret.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by query
-- parameters:
--   name = "session-signing"
SELECT secret
FROM cost_insights.installation_secrets_distributed
WHERE name = {name:String}
ORDER BY
    created_at ASC,
    secret ASC
LIMIT 1;

-- statement 2 of 3, sent by insert
INSERT INTO cost_insights.installation_secrets_distributed (name, secret, created_at) FORMAT JSONEachRow;

-- statement 3 of 3, sent by query
-- parameters:
--   name = "session-signing"
SELECT secret
FROM cost_insights.installation_secrets_distributed
WHERE name = {name:String}
ORDER BY
    created_at ASC,
    secret ASC
LIMIT 1;
