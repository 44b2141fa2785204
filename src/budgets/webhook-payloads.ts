/**
 * The bodies of budget-alert webhooks: the event itself as JSON, or a message that Slack (incoming webhooks) or
 * Microsoft Teams (Workflows and incoming webhooks, an Adaptive Card) posts as it arrives, so no relay is needed.
 */

export type WebhookFormat = 'json' | 'slack' | 'teams';
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['json', 'slack', 'teams'];

/** A budget crossing one of its thresholds (or no longer crossing it). */
export interface BudgetThresholdEvent {
  type: 'budget.threshold';
  /** 'fired' or 'withdrawn' (an extension: a restated actual or a forecast that fell back). */
  event: 'fired' | 'withdrawn';
  budgetId: string;
  name: string;
  /** yyyy-MM-dd, both inclusive. */
  period: { start: string; end: string };
  threshold: { kind: 'actual' | 'forecast'; percent: number };
  /** Exact decimal texts, in `currency`. */
  amount: string;
  actual: string;
  forecast: { mean: string; lower: string; upper: string } | null;
  currency: string;
  /** ISO-8601 UTC. */
  at: string;
}

/** The body posted for `event` in `format`. */
export function webhookBody(event: BudgetThresholdEvent, format: WebhookFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(event);
    case 'slack':
      return JSON.stringify(slackMessage(event));
    case 'teams':
      return JSON.stringify(teamsMessage(event));
  }
}

/** Slack's header block takes at most 150 characters of plain text (a longer one fails the whole message). */
const SLACK_HEADER_LIMIT = 150;

/** `text` is the notification's fallback; the blocks are what the channel shows. */
function slackMessage(event: BudgetThresholdEvent): object {
  const fields = facts(event).map(([title, value]) => ({ type: 'mrkdwn', text: `*${title}*\n${slackEscaped(value)}` }));
  return {
    text: slackEscaped(`${headline(event)}: ${spend(event)}`),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: truncated(headline(event), SLACK_HEADER_LIMIT), emoji: false } },
      { type: 'section', fields },
    ],
  };
}

/** An Adaptive Card 1.4 (the newest version both Teams Workflows and the older incoming webhooks render). */
function teamsMessage(event: BudgetThresholdEvent): object {
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      { type: 'TextBlock', text: headline(event), weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'FactSet', facts: facts(event).map(([title, value]) => ({ title, value })) },
    ],
  };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
}

function headline(event: BudgetThresholdEvent): string {
  const { kind, percent } = event.threshold;
  const reached = kind === 'actual' ? `reached ${percent}% of its amount` : `is forecast to reach ${percent}% of its amount`;
  if (event.event === 'fired') return `Budget "${event.name}" ${reached}`;
  return `Budget "${event.name}": withdrawn, no longer ${kind === 'actual' ? 'at' : 'forecast at'} ${percent}%`;
}

/** The title/value pairs both chat formats show, in order. */
function facts(event: BudgetThresholdEvent): [string, string][] {
  const { forecast, currency } = event;
  const rows: [string, string][] = [
    ['Spend', spend(event)],
    ['Threshold', `${event.threshold.kind} ${event.threshold.percent}%`],
    ['Period', `${event.period.start} to ${event.period.end}`],
  ];
  if (forecast) rows.push(['Forecast', `${forecast.mean} ${currency} (${forecast.lower} to ${forecast.upper})`]);
  return rows;
}

function spend(event: BudgetThresholdEvent): string {
  return `${event.actual} of ${event.amount} ${event.currency}`;
}

/** Slack reads &, < and > as control characters (links, mentions like <!channel>): a name must not carry them. */
function slackEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function truncated(text: string, limit: number): string {
  const characters = [...text];
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join('')}…`;
}
