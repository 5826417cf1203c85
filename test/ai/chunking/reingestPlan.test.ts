import { planReingest } from '../../../ai/chunking/reingestPlan';
import { buildChunk } from '../factories';

describe('planReingest', () => {
  it('adds new ids, keeps unchanged ones and removes vanished ones', () => {
    const unchanged = buildChunk({ text: 'Unchanged section.' });
    const edited = buildChunk({ text: 'Edited section.' });

    const plan = planReingest([unchanged.id, 'old-id'], [unchanged, edited]);

    expect(plan).toEqual({ added: [edited], kept: [unchanged], removedIds: ['old-id'] });
  });

  it('treats a first ingest as all additions', () => {
    const chunk = buildChunk();

    expect(planReingest([], [chunk])).toEqual({ added: [chunk], kept: [], removedIds: [] });
  });
});
