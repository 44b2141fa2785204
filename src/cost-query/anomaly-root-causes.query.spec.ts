import { rootCauseTagsFor } from './anomaly-root-causes.query';
import { NO_ACTIVATED_KEYS } from './activated-maps';
import { DimensionRef } from './dimension-registry';

const ORG = { organizationId: '6d1f1f7e-1b1a-4c8e-9a43-0c7f5a2b9e10' };
const SERVICE: DimensionRef = { kind: 'column', name: 'service' };
const ACTIVE = { tag: ['team', 'env'], costCategory: ['Project'] };

describe('rootCauseTagsFor', () => {
  it('looks in every tag key of an organisation without activated tag keys', () => {
    expect(rootCauseTagsFor(undefined, NO_ACTIVATED_KEYS, ORG, {}, SERVICE)).toEqual({
      source: 'all',
      scope: { ...ORG, readsActivatedMaps: false },
    });
  });

  it('looks in the activated keys, read from the activated maps, when the organisation has some', () => {
    const filters = { inclusions: { resourceTag: 'env', resourceTagValues: ['production'] } };
    expect(rootCauseTagsFor(undefined, ACTIVE, ORG, filters, { kind: 'tag', key: 'team' })).toEqual({
      source: 'activated',
      scope: { ...ORG, readsActivatedMaps: true },
    });
  });

  it('looks in every key by default when the request or the data scope names a key that is not active', () => {
    const named = { inclusions: { resourceTag: 'Name', resourceTagValues: ['web-1'] } };
    expect(rootCauseTagsFor(undefined, ACTIVE, ORG, named, SERVICE).source).toBe('all');
    expect(rootCauseTagsFor(undefined, ACTIVE, ORG, {}, { kind: 'tag', key: 'Name' }).source).toBe('all');
    expect(rootCauseTagsFor(undefined, ACTIVE, { ...ORG, dataScope: named }, {}, SERVICE).source).toBe('all');
    expect(rootCauseTagsFor(undefined, ACTIVE, ORG, {}, { kind: 'costCategory', key: 'BusinessUnit' }).source).toBe('all');
  });

  it('follows the request: every key, or the activated ones (filters on an inactive key then read the full maps)', () => {
    expect(rootCauseTagsFor('all', ACTIVE, ORG, {}, SERVICE)).toEqual({
      source: 'all',
      scope: { ...ORG, readsActivatedMaps: false },
    });
    expect(rootCauseTagsFor('activated', NO_ACTIVATED_KEYS, ORG, {}, SERVICE)).toEqual({
      source: 'activated',
      scope: { ...ORG, readsActivatedMaps: true },
    });
    const named = { inclusions: { resourceTag: 'Name', resourceTagValues: ['web-1'] } };
    expect(rootCauseTagsFor('activated', ACTIVE, ORG, named, SERVICE).scope.readsActivatedMaps).toBe(false);
  });
});
