import type { ApiRoutes } from '../../platform/http/routes';
import {
  presentGraph,
  presentHistory,
  presentInteraction,
  presentPerson,
  presentProfile,
  presentSearch,
  presentThreats,
  replayHeaders,
} from './presenters';
import {
  FriendsQuerySchema,
  FriendsSchema,
  GraphQuerySchema,
  GraphSchema,
  HistoryQuerySchema,
  HistorySchema,
  IdentityParamsSchema,
  InteractionRequestSchema,
  InteractionSchema,
  ProfileSchema,
  RelationshipsQuerySchema,
  RelationshipsSchema,
  SearchRequestSchema,
  SearchSchema,
  StatsSchema,
  ThreatsQuerySchema,
  ThreatsSchema,
  ViewerQuerySchema,
} from './schemas';
import { socialError } from './errors';
import { callerOf, type SocialGuards } from './socialGuards';
import type { SocialService } from './socialService';

const TAGS = ['social'];

/** The social brain's interaction, profile and graph routes (marks, links and sync are in their sub-areas). */
export function registerSocialRoutes(routes: ApiRoutes, social: SocialService, guards: SocialGuards): void {
  routes.add({
    method: 'post',
    path: '/social/brain/interaction',
    summary: 'Record an interaction',
    description:
      "Records what `user_id` did (to `target_user_id`), moves the target's trust in them by the kind's delta (with " +
      'repeats and the daily cap) and remembers it for both people. Idempotent by idempotency_key: a replay answers ' +
      'the first result with `Idempotent-Replayed: true`; the same key with another body is 409 IDEMPOTENCY_CONFLICT. ' +
      'A user acts only as their own identities (403 NOT_YOUR_IDENTITY).',
    tags: TAGS,
    security: 'bearer',
    middleware: guards.writes,
    request: { body: InteractionRequestSchema },
    responses: { 201: { description: 'The interaction and its trust effect', schema: InteractionSchema } },
    handler: async ({ req, body }) => {
      const target =
        body.target_platform && body.target_user_id
          ? { platform: body.target_platform, user_id: body.target_user_id }
          : undefined;
      const { interaction, replayed } = await social.interaction(callerOf(req), {
        key: body.idempotency_key,
        actor: { platform: body.platform, user_id: body.user_id },
        target,
        kind: body.kind,
        content: body.content,
        sentiment: body.sentiment,
        occurredAt: new Date(body.occurred_at),
      });
      return { status: 201, body: presentInteraction(interaction), headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/profile/:platform/:user_id',
    summary: 'Profile analysis of a person',
    description:
      'Linked identities, trust both ways with the viewer (a user is their own viewer; the service token names one ' +
      'with viewer_platform and viewer_user_id), relationship, reputation, friend and foe counts, a 7-day ' +
      'interaction summary, topics and threat level. 404 IDENTITY_NOT_FOUND for an account never seen.',
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { params: IdentityParamsSchema, query: ViewerQuerySchema },
    responses: { 200: { description: 'The profile', schema: ProfileSchema } },
    handler: async ({ req, params, query }) => {
      const viewer = social.viewerOf(callerOf(req), {
        platform: query.viewer_platform,
        user_id: query.viewer_user_id,
      });
      return { status: 200, body: presentProfile(await social.profile(params, viewer)) };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/friends',
    summary: 'List friends',
    description:
      "The caller's frens (marked, or trust 80+), or those of `platform`/`user_id` with the service token.",
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { query: FriendsQuerySchema },
    responses: { 200: { description: 'Friends, closest first', schema: FriendsSchema } },
    handler: async ({ req, query }) => {
      const of = social.viewerOf(callerOf(req), query);
      if (!of)
        throw socialError('IDENTITY_REQUIRED', 'The service token names whose friends: platform and user_id');
      return {
        status: 200,
        body: { of, friends: (await social.friends(of, query.limit)).map(presentPerson) },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/relationships/:platform/:user_id',
    summary: "A person's relationships, both ways",
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { params: IdentityParamsSchema, query: RelationshipsQuerySchema },
    responses: { 200: { description: 'Outgoing and incoming relationships', schema: RelationshipsSchema } },
    handler: async ({ req, params, query }) => {
      const { outgoing, incoming } = await social.relationships(
        callerOf(req),
        params,
        query.relationship,
        query.limit,
      );
      return {
        status: 200,
        body: { of: params, outgoing: outgoing.map(presentPerson), incoming: incoming.map(presentPerson) },
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/graph/:platform/:user_id',
    summary: 'Friends and friends of friends, trust-weighted',
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { params: IdentityParamsSchema, query: GraphQuerySchema },
    responses: {
      200: { description: 'Nodes by depth and score, and the edges between them', schema: GraphSchema },
    },
    handler: async ({ params, query }) => {
      const graph = await social.graph(params, query.depth, query.limit);
      return { status: 200, body: presentGraph(`${params.platform}:${params.user_id}`, query.depth, graph) };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/trust/:platform/:user_id/history',
    summary: "How the viewer's trust in a person changed",
    description:
      "The caller's trust (or, with the service token, viewer_platform/viewer_user_id's) over time, newest first.",
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { params: IdentityParamsSchema, query: HistoryQuerySchema },
    responses: { 200: { description: 'Trust changes', schema: HistorySchema } },
    handler: async ({ req, params, query }) => {
      const viewer = social.viewerOf(callerOf(req), {
        platform: query.viewer_platform,
        user_id: query.viewer_user_id,
      });
      if (!viewer)
        throw socialError(
          'IDENTITY_REQUIRED',
          'The service token names the viewer: viewer_platform and viewer_user_id',
        );
      return { status: 200, body: presentHistory(await social.history(viewer, params, query.limit)) };
    },
  });

  routes.add({
    method: 'get',
    path: '/social/brain/threats',
    summary: 'List threats, ranked, with reasons',
    tags: TAGS,
    security: 'admin',
    middleware: guards.operator,
    request: { query: ThreatsQuerySchema },
    responses: {
      200: { description: 'People at min_level or above, highest threat first', schema: ThreatsSchema },
    },
    handler: async ({ query }) => {
      const { ranked, identities } = await social.threats(query.min_level, query.limit);
      return { status: 200, body: presentThreats(ranked, identities) };
    },
  });

  routes.add({
    method: 'post',
    path: '/social/brain/search',
    summary: 'Find people by what they talk about',
    description:
      'The query is stemmed like their messages and widened through WordNet: synonyms count half ("agriculture" ' +
      'finds farming) and narrower kinds 0.4 ("weapons" finds swords and spears).',
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    request: { body: SearchRequestSchema },
    responses: { 200: { description: 'People, best match first', schema: SearchSchema } },
    handler: async ({ body }) => ({
      status: 200,
      body: presentSearch(await social.search(body.query, body.platform, body.limit)),
    }),
  });

  routes.add({
    method: 'get',
    path: '/social/brain/stats',
    summary: 'Counts across the social graph',
    tags: TAGS,
    security: 'bearer',
    middleware: guards.caller,
    responses: {
      200: {
        description: 'Identities, persons, links, edges, marks, interactions, batches',
        schema: StatsSchema,
      },
    },
    handler: async () => ({ status: 200, body: await social.stats() }),
  });
}
