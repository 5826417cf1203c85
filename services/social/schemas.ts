import { z } from 'zod';
import { SOCIAL_PLATFORMS } from '../../models/SocialIdentity';
import { RELATIONSHIPS } from './trust/relationships';
import { THREAT_LEVELS } from './trust/threat';
import { INTERACTION_KINDS } from './trust/trustRules';

/** Longest free text of an interaction or event (characters). */
export const MAX_TEXT_CHARS = 2000;

export const PlatformSchema = z.enum(SOCIAL_PLATFORMS).meta({
  id: 'SocialPlatform',
  description: 'discord (chat platform), minecraft (block game) or web (a platform user)',
});

/** An account id on a platform: a chat snowflake, a game UUID or name, a platform user id. */
export const SocialUserIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:@#-]+$/, 'letters, digits and _ . : @ # - only');

export const InteractionKindSchema = z.enum(INTERACTION_KINDS).meta({ id: 'SocialInteractionKind' });
export const RelationshipSchema = z.enum(RELATIONSHIPS).meta({ id: 'SocialRelationship' });
export const ThreatLevelSchema = z.enum(THREAT_LEVELS).meta({ id: 'SocialThreatLevel' });
export const SentimentSchema = z
  .number()
  .min(-1)
  .max(1)
  .meta({ description: '-1 (hostile) to 1 (warm); adds 2 × sentiment trust points' });
export const TextSchema = z.string().max(MAX_TEXT_CHARS);

export const IdentitySchema = z
  .object({ platform: PlatformSchema, user_id: SocialUserIdSchema })
  .meta({ id: 'SocialIdentity' });

/** `/:platform/:user_id` path parameters. */
export const IdentityParamsSchema = z.object({ platform: PlatformSchema, user_id: SocialUserIdSchema });

/** Whose view a read takes: the caller's web identity, or (service token) the one named here. */
export const ViewerQuerySchema = z.object({
  viewer_platform: PlatformSchema.optional(),
  viewer_user_id: SocialUserIdSchema.optional(),
});

export const InteractionRequestSchema = z
  .object({
    platform: PlatformSchema,
    user_id: SocialUserIdSchema,
    target_platform: PlatformSchema.optional(),
    target_user_id: SocialUserIdSchema.optional(),
    kind: InteractionKindSchema,
    content: TextSchema.optional(),
    sentiment: SentimentSchema.optional(),
    occurred_at: z.iso.datetime({ offset: true }),
    idempotency_key: z
      .string()
      .min(8)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only'),
  })
  .refine((body) => (body.target_platform === undefined) === (body.target_user_id === undefined), {
    message: 'target_platform and target_user_id go together',
    path: ['target_user_id'],
  });

export const TrustEffectSchema = z.object({
  observer: IdentitySchema,
  subject: IdentitySchema,
  applied: z.number().meta({ description: 'Points applied after repeats and the daily cap' }),
  trust_after: z.number().int().min(0).max(100),
  capped: z.boolean(),
});

export const InteractionSchema = z
  .object({
    id: z.string(),
    actor: IdentitySchema,
    target: IdentitySchema.nullable(),
    kind: InteractionKindSchema,
    content: z.string().nullable(),
    sentiment: z.number().nullable(),
    hostile: z.boolean(),
    occurred_at: z.string(),
    recorded_at: z.string(),
    effect: TrustEffectSchema.nullable(),
  })
  .meta({ id: 'SocialInteraction' });

export const ThreatSchema = z
  .object({
    score: z.number().int().min(0).max(100),
    level: ThreatLevelSchema,
    reasons: z.array(z.object({ code: z.string(), points: z.number(), detail: z.string() })),
  })
  .meta({ id: 'SocialThreat' });

export const LinkedIdentitySchema = IdentitySchema.extend({
  display_name: z.string().nullable(),
  last_seen: z.string(),
  linked_at: z.string().nullable(),
});

export const ProfileSchema = z
  .object({
    person: IdentitySchema.meta({
      description: 'The identity the person is known by (their web identity when linked)',
    }),
    identities: z.array(LinkedIdentitySchema),
    viewer: IdentitySchema.nullable(),
    trust: z
      .object({
        viewer_trusts_them: z.number().int().min(0).max(100),
        they_trust_viewer: z.number().int().min(0).max(100),
      })
      .nullable(),
    relationship: RelationshipSchema.nullable().meta({ description: "The viewer's relationship to them" }),
    reputation: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'Mean trust of everyone with an edge toward them (50 when none)' }),
    friend_count: z.number().int(),
    foe_count: z.number().int(),
    recent: z.object({
      days: z.number().int(),
      interactions: z.number().int(),
      by_kind: z.record(z.string(), z.number().int()),
      last_at: z.string().nullable(),
    }),
    topics: z.array(z.object({ term: z.string(), weight: z.number() })),
    threat: ThreatSchema,
  })
  .meta({ id: 'SocialProfile' });

export const PersonEntrySchema = z
  .object({
    identity: IdentitySchema,
    display_name: z.string().nullable(),
    trust: z.number().int().min(0).max(100),
    relationship: RelationshipSchema,
    marks: z.array(z.enum(['fren', 'foe', 'block'])),
    interactions: z.number().int(),
  })
  .meta({ id: 'SocialPersonEntry' });

export const PageQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

export const FriendsQuerySchema = PageQuerySchema.extend({
  platform: PlatformSchema.optional(),
  user_id: SocialUserIdSchema.optional(),
});

export const FriendsSchema = z
  .object({ of: IdentitySchema, friends: z.array(PersonEntrySchema) })
  .meta({ id: 'SocialFriends' });

export const RelationshipsQuerySchema = PageQuerySchema.extend({
  relationship: RelationshipSchema.optional(),
});

export const RelationshipsSchema = z
  .object({ of: IdentitySchema, outgoing: z.array(PersonEntrySchema), incoming: z.array(PersonEntrySchema) })
  .meta({ id: 'SocialRelationships' });

export const ThreatsQuerySchema = PageQuerySchema.extend({ min_level: ThreatLevelSchema.default('low') });

export const ThreatsSchema = z
  .object({
    threats: z.array(
      z.object({ person: IdentitySchema, identities: z.array(IdentitySchema), threat: ThreatSchema }),
    ),
  })
  .meta({ id: 'SocialThreats' });

export const GraphQuerySchema = z.object({
  depth: z.coerce.number().int().min(1).max(2).default(2),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const GraphSchema = z
  .object({
    root: IdentitySchema,
    depth: z.number().int(),
    nodes: z.array(
      z.object({
        identity: IdentitySchema,
        depth: z.number().int(),
        score: z
          .number()
          .meta({ description: 'Trust-weighted closeness: product of trust/100 along the best path' }),
        via: IdentitySchema.nullable(),
      }),
    ),
    edges: z.array(
      z.object({
        from: IdentitySchema,
        to: IdentitySchema,
        trust: z.number().int(),
        relationship: RelationshipSchema,
      }),
    ),
  })
  .meta({ id: 'SocialGraph' });

export const HistoryQuerySchema = ViewerQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const HistorySchema = z
  .object({
    observer: IdentitySchema,
    subject: IdentitySchema,
    trust: z.number().int(),
    changes: z.array(
      z.object({
        at: z.string(),
        cause: z.string(),
        applied: z.number(),
        before: z.number().int(),
        after: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'SocialTrustHistory' });

export const SearchRequestSchema = z.object({
  query: z.string().trim().min(1).max(500),
  platform: PlatformSchema.optional(),
  limit: z.number().int().min(1).max(50).default(10),
});

export const SearchSchema = z
  .object({
    results: z.array(
      z.object({
        person: IdentitySchema,
        score: z.number(),
        matched: z.array(z.string()),
        topics: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'SocialSearch' });

export const StatsSchema = z
  .object({
    identities: z.record(z.string(), z.number().int()),
    persons: z.number().int(),
    linked_identities: z.number().int(),
    edges: z.number().int(),
    marks: z.object({ fren: z.number().int(), foe: z.number().int(), block: z.number().int() }),
    interactions: z.object({ total: z.number().int(), last_day: z.number().int() }),
    sync_batches: z.number().int(),
  })
  .meta({ id: 'SocialStats' });

export type InteractionRequest = z.infer<typeof InteractionRequestSchema>;
export type Profile = z.infer<typeof ProfileSchema>;
export type PersonEntry = z.infer<typeof PersonEntrySchema>;
