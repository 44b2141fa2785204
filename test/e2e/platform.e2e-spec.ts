import { TestApp } from '../support/test-app';

describe('platform: envelope, authentication, body handling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a missing key with the exact gateway 401 body', async () => {
    const response = await t.http.post('/v1/cost-insights/data').send({ groupBy: { dateGrouping: 'daily' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthorized' });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const org = await t.newOrganization();
    const response = await t.http.get('/v1/nope').set(org.auth);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: { message: 'Route GET /v1/nope not found.' } });
  });
});
