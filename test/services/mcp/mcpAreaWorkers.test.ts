import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestPlatform } from '../../helpers/platform';
import {
  ADMIN_WALLET,
  SERVICE_TOKEN,
  call,
  connect,
  signInPlayer,
  startMcpPlatform,
  textOf,
  type Caller,
} from './mcpPlatform';

/**
 * The memory, decisions, social, quests, influencer and admin workers through the SDK's own client against the
 * whole product: each tool acts as its caller through its area's service interface.
 */
describe('MCP gateway: memory, decisions, social, quests, influencer and admin tools', () => {
  let server: TestPlatform;
  let ann: Caller;
  let bob: Caller;
  let admin: Caller;
  let asAnn: Client;
  let asBob: Client;
  let asAdmin: Client;

  beforeAll(async () => {
    server = await startMcpPlatform();
    [ann, bob, admin] = await Promise.all([
      signInPlayer(server.url),
      signInPlayer(server.url),
      signInPlayer(server.url, ADMIN_WALLET),
    ]);
    [asAnn, asBob, asAdmin] = await Promise.all([
      connect(server.url, ann.token),
      connect(server.url, bob.token),
      connect(server.url, admin.token),
    ]);
  });
  afterAll(async () => {
    await Promise.all([asAnn?.close(), asBob?.close(), asAdmin?.close()]);
    await server.stop();
  });

  it('remembers then recalls as the caller; another player recalls none of it; forget removes it', async () => {
    const content = 'My favourite weapon is the silver halberd forged in the northern smithy.';
    const remembered = await call(asAnn, 'memory_remember', {
      content,
      kind: 'preference',
      tags: ['weapons'],
    });
    expect(remembered.isError).toBeUndefined();
    expect(remembered.structuredContent).toMatchObject({
      subject: `user:${ann.userId}`,
      tier: 'episodic',
      content,
      kind: 'preference',
      tags: ['weapons'],
      merged: false,
    });
    const id = (remembered.structuredContent as { id: string }).id;
    expect(textOf(remembered)).toBe(`Remembered episodic ${id}: ${content}`);

    const recalled = await call(asAnn, 'memory_recall', { query: 'favourite weapon silver halberd' });
    expect(recalled.isError).toBeUndefined();
    const hits = (
      recalled.structuredContent as { hits: Array<{ id: string; content: string; score: number }> }
    ).hits;
    expect(hits[0]).toMatchObject({ id, content, subject: `user:${ann.userId}` });
    expect(hits[0].score).toBeGreaterThan(0);
    expect(textOf(recalled)).toContain(`1. episodic ${id}: ${content}`);

    // Bob's memories are his own: the same query finds nothing of Ann's, and listing shows none.
    const bobs = await call(asBob, 'memory_recall', { query: 'favourite weapon silver halberd' });
    expect(bobs.isError).toBeUndefined();
    expect((bobs.structuredContent as { hits: unknown[] }).hits).toEqual([]);
    expect(textOf(bobs)).toBe('Nothing recalled.');
    const bobList = await call(asBob, 'memory_list');
    expect(bobList.structuredContent).toEqual({ memories: [], next_cursor: null });
    // Nor can Bob forget Ann's memory by its id.
    const bobForgets = await call(asBob, 'memory_forget', { id });
    expect(bobForgets.structuredContent).toEqual({ forgotten: [] });

    const listed = await call(asAnn, 'memory_list', { tier: 'episodic' });
    expect(listed.structuredContent).toMatchObject({ memories: [{ id, content }], next_cursor: null });

    const unconfirmed = await call(asAnn, 'memory_forget', { query: 'halberd' });
    expect(unconfirmed.isError).toBe(true);
    expect(textOf(unconfirmed)).toBe('MEMORY_FORGET_UNCONFIRMED: Forgetting by query needs confirm: true');
    const forgotten = await call(asAnn, 'memory_forget', { id });
    expect(forgotten.structuredContent).toEqual({ forgotten: [id] });
    const after = await call(asAnn, 'memory_list');
    expect((after.structuredContent as { memories: unknown[] }).memories).toEqual([]);
  });

  it('reads the caller’s own graph: entities and bi-temporal facts from their memories, none of another’s', async () => {
    const remember = (content: string, occurred_at: string) =>
      call(asBob, 'memory_remember', { content, occurred_at });
    await remember('Mira lives in Riverside.', '2026-01-10T00:00:00.000Z');
    await remember('Mira moved to Hilltown.', '2026-06-01T00:00:00.000Z');
    const found = await call(asBob, 'graph_entities', { scope: 'mine', q: 'hill' });
    expect(found.structuredContent).toMatchObject({ entities: [{ name: 'Hilltown', type: 'place' }] });
    const march = await call(asBob, 'graph_entity', {
      name: 'Mira',
      scope: 'mine',
      as_of: '2026-03-01T00:00:00.000Z',
    });
    expect(march.isError).toBeUndefined();
    const facts = (march.structuredContent as { facts: Array<{ predicate: string; object: string }> }).facts;
    expect(facts.map((fact) => [fact.predicate, fact.object])).toEqual([['lives_in', 'Riverside']]);
    expect(textOf(march)).toMatch(/^Mira \(person\): 2 mentions, /);
    // Ann's graph and the corpus hold no Mira.
    const annMira = await call(asAnn, 'graph_entity', { name: 'Mira', scope: 'mine' });
    expect(textOf(annMira)).toBe('GRAPH_ENTITY_NOT_FOUND: No entity named Mira');
    const corpus = await call(asBob, 'graph_entities', { q: 'Mira' });
    expect(corpus.structuredContent).toEqual({ entities: [] });
    await call(asBob, 'memory_forget', { query: 'Mira', confirm: true });
  });

  it('answers bad arguments with a schema error naming each path', async () => {
    const missing = await call(asAnn, 'memory_remember', { text: 'wrong key' });
    expect(missing.isError).toBe(true);
    expect(missing._meta).toEqual({ 'forge/error': { code: 'TOOL_INVALID_ARGUMENTS' } });
    expect(textOf(missing)).toMatch(/^TOOL_INVALID_ARGUMENTS: /);
    expect(textOf(missing)).toContain('content');
    expect(textOf(missing)).toContain('text');
    const both = await call(asAnn, 'memory_forget', { id: 'x', session_id: 'y' });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('give exactly one of id, session_id or query');
    const quest = await call(asAnn, 'quests_dismiss', { quest: 'DROP TABLE' });
    expect(textOf(quest)).toMatch(/^TOOL_INVALID_ARGUMENTS: .*quest/);
    const limit = await call(asAnn, 'quests_recommendations', { limit: 500 });
    expect(textOf(limit)).toMatch(/^TOOL_INVALID_ARGUMENTS: .*limit/);
  });

  it('marks a fren, lists frens, reads a profile and records an interaction once per key', async () => {
    const marked = await call(asAnn, 'social_mark', {
      target_platform: 'web',
      target_user_id: bob.userId,
      mark: 'fren',
      reason: 'helped me build',
    });
    expect(marked.isError).toBeUndefined();
    expect(marked.structuredContent).toEqual({
      observer: { platform: 'web', user_id: ann.userId },
      subject: { platform: 'web', user_id: bob.userId },
      trust: 70,
      trust_before: 50,
      relationship: 'fren',
      marks: ['fren'],
    });
    const friends = await call(asAnn, 'social_friends');
    expect(friends.structuredContent).toMatchObject({
      of: { platform: 'web', user_id: ann.userId },
      friends: [{ identity: { platform: 'web', user_id: bob.userId }, trust: 70, relationship: 'fren' }],
    });
    const profile = await call(asAnn, 'social_profile', { platform: 'web', user_id: bob.userId });
    expect(profile.structuredContent).toMatchObject({
      person: { platform: 'web', user_id: bob.userId },
      viewer: { platform: 'web', user_id: ann.userId },
      trust: { viewer_trusts_them: 70 },
      relationship: 'fren',
    });
    const self = await call(asAnn, 'social_mark', {
      target_platform: 'web',
      target_user_id: ann.userId,
      mark: 'foe',
    });
    expect(textOf(self)).toBe('SOCIAL_SELF_TARGET: A person cannot mark themselves');

    const interaction = {
      kind: 'gift',
      target_platform: 'web',
      target_user_id: ann.userId,
      content: 'gave Ann a loaf of bread',
      sentiment: 0.5,
      occurred_at: new Date().toISOString(),
      idempotency_key: 'bob-gift-bread-1',
    };
    const first = await call(asBob, 'social_record_interaction', interaction);
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent).toMatchObject({
      actor: { platform: 'web', user_id: bob.userId },
      target: { platform: 'web', user_id: ann.userId },
      kind: 'gift',
      replayed: false,
    });
    const replay = await call(asBob, 'social_record_interaction', interaction);
    expect(replay.structuredContent).toMatchObject({
      id: (first.structuredContent as { id: string }).id,
      replayed: true,
    });
    expect(textOf(replay)).toMatch(/^Already recorded gift /);
    // The service token reads the graph but names whose: it has no identity of its own.
    const asService = await connect(server.url, SERVICE_TOKEN);
    const unnamed = await call(asService, 'social_profile');
    expect(textOf(unnamed)).toBe('IDENTITY_REQUIRED: The service token names whose: platform and user_id');
    await asService.close();
  });

  it('recommends and suggests quests for the caller, and dismisses one', async () => {
    const recommended = await call(asAnn, 'quests_recommendations', { limit: 10 });
    expect(recommended.isError).toBeUndefined();
    const { recommendations } = recommended.structuredContent as {
      recommendations: Array<{ quest: string; score: number; reasons: string[] }>;
    };
    expect(recommendations.length).toBeGreaterThan(3);
    const scores = recommendations.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(textOf(recommended)).toMatch(new RegExp(`^${recommendations.length} recommended:\\n1\\. `));

    const suggested = await call(asAnn, 'quests_suggest', {
      interests: 'hunting wolves in the forest',
      limit: 3,
    });
    expect(suggested.structuredContent).toMatchObject({
      interests: 'hunting wolves in the forest',
    });
    expect((suggested.structuredContent as { suggestions: unknown[] }).suggestions[0]).toMatchObject({
      quest: 'forest:wolf_cull',
      state: 'available',
    });

    const top = recommendations[0].quest;
    const dismissed = await call(asAnn, 'quests_dismiss', { quest: top });
    expect(dismissed.structuredContent).toEqual({ quest: top, dismissed_at: expect.any(String) });
    const after = await call(asAnn, 'quests_recommendations', { limit: 20 });
    const refs = (
      after.structuredContent as { recommendations: Array<{ quest: string }> }
    ).recommendations.map((r) => r.quest);
    expect(refs).not.toContain(top);
    const unknown = await call(asAnn, 'quests_dismiss', { quest: 'village:no_such_quest' });
    expect(textOf(unknown)).toBe('QUEST_NOT_FOUND: No quest village:no_such_quest');

    const insights = await call(asAnn, 'quests_insights');
    expect(insights.structuredContent).toMatchObject({ player: { level: 1 }, world: null });
  });

  it('refuses the admin tools to a player, saying why, and serves them to an admin', async () => {
    const refused = await call(asAnn, 'admin_health');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('TOOL_FORBIDDEN: You may not call admin_health: it needs the admin role.');
    expect(refused._meta).toEqual({ 'forge/error': { code: 'TOOL_FORBIDDEN' } });

    // Every tool an admin sees is described for a model, with object input and output schemas.
    const { tools } = await asAdmin.listTools();
    for (const tool of tools) {
      expect([tool.name, tool.inputSchema.type, tool.outputSchema?.type]).toEqual([
        tool.name,
        'object',
        'object',
      ]);
      expect(tool.title).toBeTruthy();
      expect(tool.description?.length).toBeGreaterThan(30);
    }

    const health = await call(asAdmin, 'admin_health');
    expect(health.isError).toBeUndefined();
    const { health: score } = health.structuredContent as { health: { score: number; factors: unknown[] } };
    expect(score.score).toBeGreaterThanOrEqual(0);
    expect(score.score).toBeLessThanOrEqual(100);
    expect(score.factors.length).toBeGreaterThan(0);
    expect(textOf(health)).toMatch(new RegExp(`^Health ${score.score}/100`));

    const status = await call(asAdmin, 'admin_status');
    expect(status.structuredContent).toMatchObject({
      areas: expect.arrayContaining([
        expect.objectContaining({ name: 'quests' }),
        expect.objectContaining({ name: 'audit' }),
      ]),
    });

    // Ann's tool calls above are in the audit log: her activity shows them.
    const activity = await call(asAdmin, 'admin_user_activity', { user_id: ann.userId, limit: 200 });
    expect(activity.isError).toBeUndefined();
    const timeline = activity.structuredContent as {
      user: { id: string };
      timeline: Array<{ area: string }>;
    };
    expect(timeline.user.id).toBe(ann.userId);
    expect(timeline.timeline.some((entry) => entry.area === 'tools')).toBe(true);
    const nobody = await call(asAdmin, 'admin_user_activity', { user_id: '0123456789abcdef01234567' });
    expect(textOf(nobody)).toBe('USER_NOT_FOUND: No user 0123456789abcdef01234567');
  });

  it('records decisions as an admin and lists them for a player, who may not record', async () => {
    const recorded = await call(asAdmin, 'decision_record', {
      title: 'Quest recommendations use play style',
      category: 'architecture',
      rationale: 'Players dismissed level-only recommendations as repetitive.',
    });
    expect(recorded.isError).toBeUndefined();
    expect(recorded.structuredContent).toMatchObject({
      title: 'Quest recommendations use play style',
      status: 'active',
      version: 1,
      created_by: `user:${admin.userId}`,
    });
    const id = (recorded.structuredContent as { id: string }).id;
    const listed = await call(asAnn, 'decisions_list', { q: 'play style' });
    expect(listed.structuredContent).toMatchObject({ decisions: [{ id, status: 'active' }] });
    const refused = await call(asAnn, 'decision_revert', { id, reason: 'no' });
    expect(textOf(refused)).toBe(
      'TOOL_FORBIDDEN: You may not call decision_revert: it needs the operator role.',
    );
    const reverted = await call(asAdmin, 'decision_revert', {
      id,
      reason: 'Measured no change in retention.',
    });
    expect(reverted.structuredContent).toMatchObject({ id, status: 'reverted', version: 2 });
  });

  it('serves the influencer tools to a creator only', async () => {
    const before = await call(asBob, 'influencer_insights');
    expect(textOf(before)).toBe(
      'TOOL_FORBIDDEN: You may not call influencer_insights: it needs the creator role.',
    );
    const granted = await call(asAdmin, 'identity_set_roles', {
      user_id: bob.userId,
      roles: ['player', 'creator'],
    });
    expect(granted.isError).toBeUndefined();
    const asCreator = await connect(server.url, bob.token);
    const { tools } = await asCreator.listTools();
    const influencerTools = tools.filter((tool) => tool.name.startsWith('influencer_'));
    expect(influencerTools).toHaveLength(7);
    for (const tool of influencerTools) expect(tool.outputSchema?.type).toBe('object');
    const post = await call(asCreator, 'influencer_record_post', {
      platform: 'x',
      text: 'Wolves are back in the northern forest: bring a torch and a friend.',
      published_at: '2026-01-05T18:00:00Z',
      tags: ['wolves'],
    });
    expect(post.isError).toBeUndefined();
    expect(post.structuredContent).toMatchObject({ platform: 'x', tags: ['wolves'] });
    const postId = (post.structuredContent as { id: string }).id;
    const recalled = await call(asCreator, 'influencer_posts', { q: 'wolves in the forest' });
    expect(recalled.structuredContent).toMatchObject({ posts: [{ id: postId }] });
    const reading = {
      post_id: postId,
      at: '2026-01-06T18:00:00Z',
      likes: 10,
      shares: 2,
      comments: 4,
      views: 300,
    };
    const first = await call(asCreator, 'influencer_record_engagement', reading);
    expect(first.structuredContent).toMatchObject({ post_id: postId, created: true });
    const again = await call(asCreator, 'influencer_record_engagement', reading);
    expect(again.structuredContent).toMatchObject({ post_id: postId, created: false });
    // Ann holds no creator grant: the posts tools are not hers.
    const annPosts = await call(asAnn, 'influencer_posts', {});
    expect(textOf(annPosts)).toBe(
      'TOOL_FORBIDDEN: You may not call influencer_posts: it needs the creator role.',
    );
    await asCreator.close();
  });
});
