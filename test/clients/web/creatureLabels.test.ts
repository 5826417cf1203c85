import { CreatureLabels } from '../../../clients/web/src/creatureLabels';

describe('the web client’s creature names in the Here list', () => {
  const hen = (id: string) => ({ id, name: 'speckled hen' });

  it('numbers creatures of one name as the world does: the room description’s order, then newcomers', () => {
    const labels = new CreatureLabels();
    labels.seeded('village:square', [hen('c7'), hen('c2')]);
    const names = (here: Array<{ id: string; name: string }>) =>
      labels.label('village:square', here).map(({ creature, label }) => `${creature.id} ${label}`);
    // The state lists them in its own order; the labels follow the world's arrival order.
    expect(names([hen('c2'), hen('c7'), { id: 'c3', name: 'cellar rat' }])).toEqual([
      'c7 first speckled hen',
      'c2 second speckled hen',
      'c3 cellar rat',
    ]);
    expect(names([hen('c1'), hen('c2'), hen('c7')])).toEqual([
      'c7 first speckled hen',
      'c2 second speckled hen',
      'c1 third speckled hen',
    ]);
    // The first leaves: the others move up; one left alone is plain again.
    expect(names([hen('c1'), hen('c2')])).toEqual(['c2 first speckled hen', 'c1 second speckled hen']);
    expect(names([hen('c1')])).toEqual(['c1 speckled hen']);
    // Another room starts afresh.
    expect(labels.label('village:market', [hen('c9')]).map(({ label }) => label)).toEqual(['speckled hen']);
  });
});
