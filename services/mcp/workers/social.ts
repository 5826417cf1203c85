import { z } from 'zod';
import { IdempotencyKeySchema } from '../../../platform/http/idempotencyKey';
import { ValidationError } from '../../../platform/errors';
import type { Principal } from '../../../access/principal';
import type { SocialService } from '../../social';
import { webIdentity, type IdentityRef } from '../../social';
import { MarkSchema } from '../../social';
import { presentInteraction, presentMark, presentPerson, presentProfile, presentSearch } from '../../social';
import {
  FriendsSchema,
  InteractionKindSchema,
  InteractionSchema,
  PlatformSchema,
  ProfileSchema,
  RelationshipSchema,
  RelationshipsSchema,
  SearchSchema,
  SentimentSchema,
  SocialUserIdSchema,
  StatsSchema,
  TextSchema,
} from '../../social';
import type { SocialCaller } from '../../social';
import { callerKey } from '../toolAccess';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { callerUserId, pageLimit } from './caller';

/** The social area's view of an MCP caller (the same as its routes' `callerOf`). */
function socialCaller(caller: Principal): SocialCaller {
  if (caller.kind === 'service') return { kind: 'service' };
  return {
    kind: 'user',
    userId: caller.userId.toHexString(),
    operator: caller.roles.some((role) => role !== 'player'),
  };
}

const person = {
  platform: PlatformSchema.optional().meta({ description: 'discord, minecraft or web; default: you' }),
  user_id: SocialUserIdSchema.optional().meta({
    description: 'Their account id on that platform (a web user id on web); default: you',
  }),
};
const target = {
  target_platform: PlatformSchema,
  target_user_id: SocialUserIdSchema.meta({ description: 'Their account id (a web user id on web)' }),
};

/** The person a read names, or the caller's own web identity (users); the service token must name one. */
function personOf(input: { platform?: string; user_id?: string }, caller: Principal): IdentityRef {
  if (input.platform && input.user_id)
    return { platform: input.platform, user_id: input.user_id } as IdentityRef;
  if (input.platform || input.user_id) {
    throw new ValidationError('platform and user_id go together', [
      { path: input.platform ? 'user_id' : 'platform', message: 'required with the other' },
    ]);
  }
  if (caller.kind === 'service') {
    throw new ValidationError(
      'The service token names whose: platform and user_id',
      [{ path: 'platform', message: 'required for the service token' }],
      'IDENTITY_REQUIRED',
    );
  }
  return webIdentity(caller.userId.toHexString());
}

const InteractionOutput = InteractionSchema.extend({
  replayed: z
    .boolean()
    .meta({ description: 'True when this key was used before: the first result, unchanged' }),
});

/**
 * The social worker: the social graph (SPEC 4.5) through the social area's SocialService: profiles, your frens and
 * relationships, people by topic, counts, and recording what you did with someone or marking them fren, foe or
 * block. Writes act as the caller's own web identity (a user acts only as themselves); reads are the routes' reads.
 */
export function socialWorker(social: SocialService): Worker {
  return {
    name: 'social',
    description: 'People and trust: profiles, your frens and relationships, who talks about what, marks.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'social_profile',
        title: 'A person’s social profile',
        description:
          'A person’s linked identities, trust both ways with you, your relationship to them, reputation, ' +
          'friend and foe counts, a 7-day interaction summary, topics and threat level. Without platform and ' +
          'user_id, your own. IDENTITY_NOT_FOUND for an account never seen.',
        input: z.strictObject(person),
        output: ProfileSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async (input, { caller }) => {
          const viewer = social.viewerOf(socialCaller(caller), {});
          return presentProfile(await social.profile(personOf(input, caller), viewer));
        },
        summarise: (profile) =>
          `${profile.person.platform}:${profile.person.user_id}: reputation ${profile.reputation}, ` +
          `${profile.friend_count} frens, ${profile.foe_count} foes, threat ${profile.threat.level}` +
          (profile.relationship ? `; your relationship: ${profile.relationship}.` : '.'),
      }),
      defineTool({
        name: 'social_friends',
        title: 'My frens',
        description: 'Your frens (marked fren, or trusted 80+), closest first, with trust and interactions.',
        input: z.strictObject({ limit: pageLimit(200, 50) }),
        output: FriendsSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: async ({ limit }, { caller }) => {
          const of = webIdentity(callerUserId(caller));
          return { of, friends: (await social.friends(of, limit)).map(presentPerson) };
        },
        summarise: ({ friends }) =>
          friends.length === 0
            ? 'No frens yet.'
            : `${friends.length} frens: ` +
              friends
                .slice(0, 10)
                .map((friend) => `${friend.display_name ?? friend.identity.user_id} (trust ${friend.trust})`)
                .join(', ') +
              '.',
      }),
      defineTool({
        name: 'social_relationships',
        title: 'Relationships of a person',
        description:
          'Whom a person (default: you) trusts or distrusts and who trusts them: outgoing and incoming, each with ' +
          'trust, relationship and marks. You see only the blocks you set yourself.',
        input: z.strictObject({
          ...person,
          relationship: RelationshipSchema.optional().meta({ description: 'Only this relationship' }),
          limit: pageLimit(200, 50),
        }),
        output: RelationshipsSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async (input, { caller }) => {
          const of = personOf(input, caller);
          const { outgoing, incoming } = await social.relationships(
            socialCaller(caller),
            of,
            input.relationship,
            input.limit,
          );
          return { of, outgoing: outgoing.map(presentPerson), incoming: incoming.map(presentPerson) };
        },
        summarise: ({ of, outgoing, incoming }) =>
          `${of.platform}:${of.user_id}: ${outgoing.length} outgoing, ${incoming.length} incoming relationships.`,
      }),
      defineTool({
        name: 'social_search',
        title: 'Find people by what they talk about',
        description:
          'People whose conversations match the query’s topics (synonyms and narrower kinds count: "weapons" ' +
          'finds talk of swords), best first, with the terms that matched.',
        input: z.strictObject({
          query: z.string().trim().min(1).max(500).meta({ description: 'Topics, in plain words' }),
          platform: PlatformSchema.optional(),
          limit: pageLimit(50, 10),
        }),
        output: SearchSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async (input) =>
          presentSearch(await social.search(input.query, input.platform, input.limit)),
        summarise: ({ results }) =>
          results.length === 0
            ? 'Nobody found.'
            : `${results.length} people: ` +
              results
                .slice(0, 5)
                .map((hit) => `${hit.person.platform}:${hit.person.user_id} (${hit.matched.join(', ')})`)
                .join('; ') +
              '.',
      }),
      defineTool({
        name: 'social_stats',
        title: 'Social graph counts',
        description:
          'Identities per platform, persons, links, trust edges, marks, interactions and sync batches.',
        input: z.strictObject({}),
        output: StatsSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: () => social.stats(),
        summarise: (stats) =>
          `${stats.persons} persons, ${stats.edges} trust edges, ${stats.interactions.total} interactions ` +
          `(${stats.interactions.last_day} in the last day).`,
      }),
      defineTool({
        name: 'social_record_interaction',
        title: 'Record something I did with someone',
        description:
          'Records an interaction of yours (help, gift, trade_completed, play_together, praise, message, or a ' +
          'report such as spam, insult, scam, grief), optionally with a target person; it is remembered for both ' +
          'of you. Something you claim in your own favour is recorded without raising their trust in you. ' +
          'Idempotent per idempotency_key (replayed: true on a retry); the same key with other arguments is ' +
          'IDEMPOTENCY_CONFLICT.',
        input: z.strictObject({
          kind: InteractionKindSchema,
          target_platform: target.target_platform.optional(),
          target_user_id: target.target_user_id.optional(),
          content: TextSchema.optional().meta({
            description: 'What happened or was said (≤ 2000 characters)',
          }),
          sentiment: SentimentSchema.optional(),
          occurred_at: z.iso.datetime({ offset: true }).meta({
            description: 'When it happened (ISO 8601); part of the request a retry must repeat exactly',
          }),
          idempotency_key: IdempotencyKeySchema.meta({
            description: 'Required. A new key per interaction; a retry with the same key records it once',
          }),
        }),
        output: InteractionOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
        access: ACCESS.player,
        callsPerMinute: 60,
        handler: async (input, { caller }) => {
          if ((input.target_platform === undefined) !== (input.target_user_id === undefined)) {
            throw new ValidationError('target_platform and target_user_id go together', [
              { path: 'target_user_id', message: 'required with target_platform' },
            ]);
          }
          const { interaction, replayed } = await social.interaction(socialCaller(caller), {
            key: input.idempotency_key,
            actor: webIdentity(callerUserId(caller)),
            target:
              input.target_platform && input.target_user_id
                ? { platform: input.target_platform, user_id: input.target_user_id }
                : undefined,
            kind: input.kind,
            content: input.content,
            sentiment: input.sentiment,
            occurredAt: new Date(input.occurred_at),
          });
          return { ...presentInteraction(interaction), replayed };
        },
        summarise: (recorded) =>
          `${recorded.replayed ? 'Already recorded' : 'Recorded'} ${recorded.kind} ${recorded.id}` +
          (recorded.effect
            ? `: their trust in you is ${recorded.effect.trust_after} (${recorded.effect.applied >= 0 ? '+' : ''}${recorded.effect.applied}).`
            : '.'),
      }),
      defineTool({
        name: 'social_mark',
        title: 'Mark someone fren, foe or block',
        description:
          'Sets (or with set: false clears) your fren, foe or block mark on a person. fren adds 20 trust points ' +
          'and clears foe; foe takes 30 and clears fren; block hides them from your frens and stops their ' +
          'interactions raising your trust. Setting a mark again changes nothing. SOCIAL_SELF_TARGET for yourself.',
        input: z.strictObject({
          ...target,
          mark: z.enum(['fren', 'foe', 'block']),
          set: z
            .boolean()
            .default(true)
            .meta({ description: 'true (default) sets the mark, false clears it' }),
          reason: z.string().max(500).optional(),
        }),
        output: MarkSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
        access: ACCESS.player,
        callsPerMinute: 60,
        handler: async (input, { caller }) =>
          presentMark(
            await social.mark(socialCaller(caller), {
              actor: webIdentity(callerUserId(caller)),
              target: { platform: input.target_platform, user_id: input.target_user_id },
              mark: input.mark,
              set: input.set,
              reason: input.reason,
              origin: { actor: callerKey(caller), ip: null, requestId: null },
            }),
          ),
        summarise: (mark) =>
          `${mark.subject.platform}:${mark.subject.user_id} is now ${mark.relationship} to you (trust ` +
          `${mark.trust_before} → ${mark.trust}; marks: ${mark.marks.join(', ') || 'none'}).`,
      }),
    ],
  };
}
