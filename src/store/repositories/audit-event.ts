/**
 * The audit trail's vocabulary (issue 36): who did what to which object of an organisation, from where. Each action
 * is named once here; the admin routes record them, GET /v1/admin/audit-events filters and describes them, the
 * OIDC sign-in records the `sign-in.*` ones, and anomaly feedback (it changes the organisation's later scans) its own.
 */
export const AUDIT_ACTIONS = [
  'api-key.created',
  'api-key.revoked',
  'currency.settings-changed',
  'exchange-rates.changed',
  'source.created',
  'source.deleted',
  'source.run',
  'tag-keys.changed',
  'cost-category.changed',
  'cost-category.deleted',
  'sign-in.succeeded',
  'sign-in.failed',
  'sign-out',
  'session.cross-site-refused',
  'anomaly.feedback-given',
  'budget.created',
  'budget.changed',
  'budget.deleted',
  'budget.alert-fired',
  'budget.alert-withdrawn',
  'budget.webhook-delivered',
  'budget.webhook-dead-lettered',
  'business-metric.changed',
  'business-metric.deleted',
  'business-metric.values-loaded',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** What each action records, for the API's description (Swagger) and docs. */
export const AUDIT_ACTION_MEANINGS: Readonly<Record<AuditAction, string>> = {
  'api-key.created': 'an API key was created (target: its id; details: name, scopes, data scope)',
  'api-key.revoked': 'an API key was revoked (target: its id; details: name)',
  'currency.settings-changed': 'the reporting currency or conversion policy changed (details: before, after)',
  'exchange-rates.changed': 'exchange rates were loaded (details: format, source, rates and pairs stored)',
  'source.created': 'a data source was added (target: its id; details: integration, kind, location)',
  'source.deleted': 'a data source was removed (target: its id)',
  'source.run': 'a data source was checked on request, importing what was new (target: its id; details: outcomes)',
  'tag-keys.changed': 'the activated tag and cost-category keys changed (details: activating, deactivated)',
  'cost-category.changed':
    'a rule-defined cost category was saved as a new version (target: its key; details: version, effectiveFrom, ruleCount)',
  'cost-category.deleted': 'a rule-defined cost category was deleted, its versions kept (target: its key; details: version)',
  'sign-in.succeeded': 'someone signed in to the Settings pages through the identity provider',
  'sign-in.failed': 'a sign-in through the identity provider was refused (details: why)',
  'sign-out': 'someone signed out of the Settings pages',
  'session.cross-site-refused':
    "a change carrying a signed-in person's session came from another site and was refused (details: origin, method, path)",
  'anomaly.feedback-given':
    'feedback was given on an anomaly, changing the baselines of later scans of its series (target: its id; details: reason, dimension, dimensionValue, start, end)',
  'budget.created':
    'a budget was created (target: its id; details: name, period, metric, currency, amounts, thresholds, filters, webhook hosts)',
  'budget.changed': 'a budget was saved with a new definition (target: its id; details as budget.created)',
  'budget.deleted': 'a budget was removed, its alerts kept (target: its id; details: name)',
  'budget.alert-fired': "the worker fired a budget threshold's alert (target: the budget's id; details: eventId, threshold, period)",
  'budget.alert-withdrawn':
    "the worker withdrew a budget threshold's alert: restated spend, or a forecast whose upper bound fell back (target: the budget's id; details as fired)",
  'budget.webhook-delivered': "an alert reached a webhook (target: the budget's id; details: eventId, destination host, attempt, status)",
  'budget.webhook-dead-lettered':
    "an alert's webhook failed for 24 hours of retries and was given up (target: the budget's id; details: eventId, destination host, attempts, last status)",
  'business-metric.changed': 'a business metric was defined or its unit changed (target: its name; details: unit, unitScale, dimension)',
  'business-metric.deleted': 'a business metric was removed, its values kept (target: its name)',
  'business-metric.values-loaded':
    "a business metric's daily values were loaded, replacing the days given (target: its name; details: values, days, first, last)",
};

export const AUDIT_ACTOR_KINDS = ['api-key', 'sso', 'worker'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Who acted: an admin API key (by its public id, never the key) or a person signed in through the identity provider. */
export type AuditActor =
  | { kind: 'api-key'; keyId: string }
  | { kind: 'sso'; subject: string; email: string }
  /** The worker acting on its own (budget alerts and their webhooks), by the job's name. */
  | { kind: 'worker'; name: string };

/**
 * Where a change was asked from: the organisation it changed (always the caller's own), who asked, the client's IP
 * (as the app resolves it: X-Forwarded-For only across TRUST_PROXY_HOPS) and the request id of the logs.
 */
export interface AuditOrigin {
  organizationId: string;
  actor: AuditActor;
  clientIp: string;
  requestId: string;
}

/** A JSON object of what changed. Only names, ids, settings and counts: never a key, token or secret. */
export type AuditDetails = Readonly<Record<string, unknown>>;

/** One event as stored and read back. */
export interface AuditEvent {
  eventId: string;
  /** ISO 8601, milliseconds, UTC. */
  at: string;
  organizationId: string;
  actorKind: AuditActorKind;
  /** The admin key's id, or the identity provider's subject. */
  actorId: string;
  /** The signed-in person's email; '' for a key. */
  actorEmail: string;
  action: AuditAction;
  target: string;
  details: AuditDetails;
  clientIp: string;
  requestId: string;
}

/** The actor's id and email as stored. */
export function actorColumns(actor: AuditActor): { actorKind: AuditActorKind; actorId: string; actorEmail: string } {
  switch (actor.kind) {
    case 'api-key':
      return { actorKind: 'api-key', actorId: actor.keyId, actorEmail: '' };
    case 'sso':
      return { actorKind: 'sso', actorId: actor.subject, actorEmail: actor.email };
    case 'worker':
      return { actorKind: 'worker', actorId: actor.name, actorEmail: '' };
  }
}
