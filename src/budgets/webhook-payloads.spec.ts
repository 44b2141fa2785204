import { BudgetThresholdEvent, WEBHOOK_FORMATS, webhookBody } from './webhook-payloads';

const EVENT: BudgetThresholdEvent = {
  type: 'budget.threshold',
  event: 'fired',
  budgetId: 'b_01',
  name: 'Platform & <Data> team',
  period: { start: '2026-05-01', end: '2026-05-31' },
  threshold: { kind: 'actual', percent: 80 },
  amount: '1000',
  actual: '812.5',
  forecast: { mean: '1190.25', lower: '1100', upper: '1300.0000000001' },
  currency: 'USD',
  at: '2026-05-20T06:00:00.000Z',
};

describe('budget-alert webhook bodies', () => {
  it('lists the three formats', () => {
    expect(WEBHOOK_FORMATS).toEqual(['json', 'slack', 'teams']);
  });

  it('posts the event itself as json', () => {
    expect(webhookBody(EVENT, 'json')).toBe(JSON.stringify(EVENT));
    expect(JSON.parse(webhookBody({ ...EVENT, forecast: null }, 'json'))).toEqual({ ...EVENT, forecast: null });
  });

  it('posts a Slack message: an escaped fallback text, a header and a section of fields', () => {
    expect(JSON.parse(webhookBody(EVENT, 'slack'))).toEqual({
      text: 'Budget "Platform &amp; &lt;Data&gt; team" reached 80% of its amount: 812.5 of 1000 USD',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Budget "Platform & <Data> team" reached 80% of its amount', emoji: false } },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Spend*\n812.5 of 1000 USD' },
            { type: 'mrkdwn', text: '*Threshold*\nactual 80%' },
            { type: 'mrkdwn', text: '*Period*\n2026-05-01 to 2026-05-31' },
            { type: 'mrkdwn', text: '*Forecast*\n1190.25 USD (1100 to 1300.0000000001)' },
          ],
        },
      ],
    });
  });

  it('escapes a name that would mention everyone or link, and keeps the header within 150 characters', () => {
    const body = JSON.parse(webhookBody({ ...EVENT, name: '<!channel> <https://evil.example|x>' }, 'slack')) as { text: string };
    expect(body.text).toBe('Budget "&lt;!channel&gt; &lt;https://evil.example|x&gt;" reached 80% of its amount: 812.5 of 1000 USD');
    const long = JSON.parse(webhookBody({ ...EVENT, name: 'é'.repeat(200) }, 'slack')) as { blocks: { text: { text: string } }[] };
    expect([...long.blocks[0].text.text]).toHaveLength(150);
    expect(long.blocks[0].text.text).toBe(`Budget "${'é'.repeat(141)}…`);
  });

  it('says what a forecast threshold and a withdrawal are, and leaves out a missing forecast', () => {
    const forecastFired = { ...EVENT, threshold: { kind: 'forecast' as const, percent: 100 }, forecast: null };
    const slack = JSON.parse(webhookBody(forecastFired, 'slack')) as { text: string; blocks: { fields?: unknown[] }[] };
    expect(slack.text).toBe('Budget "Platform &amp; &lt;Data&gt; team" is forecast to reach 100% of its amount: 812.5 of 1000 USD');
    expect(slack.blocks[1].fields).toHaveLength(3);
    const withdrawn = (kind: 'actual' | 'forecast') =>
      webhookBody({ ...EVENT, event: 'withdrawn', threshold: { kind, percent: 80 } }, 'slack');
    expect((JSON.parse(withdrawn('actual')) as { text: string }).text).toMatch(
      /^Budget "Platform &amp; &lt;Data&gt; team": withdrawn, no longer at 80%: /,
    );
    expect((JSON.parse(withdrawn('forecast')) as { text: string }).text).toMatch(/: withdrawn, no longer forecast at 80%: /);
  });

  it('posts a Teams message: an Adaptive Card 1.4 attachment with a title and a fact set', () => {
    expect(JSON.parse(webhookBody(EVENT, 'teams'))).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: 'Budget "Platform & <Data> team" reached 80% of its amount',
                weight: 'Bolder',
                size: 'Medium',
                wrap: true,
              },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Spend', value: '812.5 of 1000 USD' },
                  { title: 'Threshold', value: 'actual 80%' },
                  { title: 'Period', value: '2026-05-01 to 2026-05-31' },
                  { title: 'Forecast', value: '1190.25 USD (1100 to 1300.0000000001)' },
                ],
              },
            ],
          },
        },
      ],
    });
  });
});
