/** The organisation the first start loads demo data for (also the Swagger examples' organizationId). */
export const DEMO_ORGANIZATION_ID = '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d';
