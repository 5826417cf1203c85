import { z } from 'zod';
import type { MemoryService } from '../../brain';
import { memoryError } from '../../brain';
import { presentMemory, presentRecall } from '../../brain';
import {
  ForgetResponseSchema,
  MemoryListSchema,
  MemoryRecordSchema,
  MemoryTierSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  RememberRequestSchema,
  RememberResponseSchema,
  WorkingMemorySchema,
} from '../../brain';
import { userSubject } from '../../brain';
import type { Principal } from '../../../access/principal';
import { ACCESS, ACTS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { callerUserId, pageLimit } from './caller';

/** The caller's own memory subject (`user:<id>`): these tools never name another. */
const subjectOf = (caller: Principal) => userSubject(callerUserId(caller));

const rememberShape = RememberRequestSchema.shape;
const RememberInput = z.strictObject({
  content: rememberShape.content.meta({
    description: 'What to remember, in plain words (≤ 20,000 characters)',
  }),
  tier: rememberShape.tier,
  session_id: rememberShape.session_id.meta({ description: 'The conversation it belongs to (working tier)' }),
  kind: rememberShape.kind.meta({ description: 'What sort of memory, e.g. preference, plan, fact' }),
  tags: rememberShape.tags,
  importance: rememberShape.importance.meta({ description: '0-1, weighs recall; default 0.5' }),
  occurred_at: rememberShape.occurred_at.meta({ description: 'When it happened (ISO 8601); default now' }),
});

const recallShape = RecallRequestSchema.shape;
const RecallInput = z.strictObject({
  query: recallShape.query.meta({ description: 'What to recall, in plain words' }),
  tiers: recallShape.tiers.meta({ description: 'Only these tiers; default all four' }),
  session_id: recallShape.session_id.meta({
    description: 'Also return this conversation’s working memory whole',
  }),
  tags: recallShape.tags.meta({ description: 'Only memories carrying every one of these tags' }),
  limit: recallShape.limit.meta({ description: 'Most hits (1-100, default 10)' }),
  as_of: recallShape.as_of.meta({ description: 'Only what was known then (ISO 8601)' }),
});

const ListInput = z.strictObject({
  tier: MemoryTierSchema.exclude(['working']).optional().meta({ description: 'Only this stored tier' }),
  session_id: z.string().trim().min(1).max(200).optional(),
  tags: z.array(z.string().trim().min(1).max(100)).max(32).optional(),
  cursor: z.string().max(100).optional().meta({ description: 'next_cursor of the previous page' }),
  limit: pageLimit(200, 50),
});

const ForgetInput = z
  .strictObject({
    id: z.string().min(1).max(100).optional().meta({ description: 'One memory (from recall or list)' }),
    session_id: z.string().trim().min(1).max(200).optional().meta({ description: 'A whole conversation' }),
    query: z.string().trim().min(1).max(2000).optional().meta({
      description: 'Everything this query recalls; needs confirm: true',
    }),
    confirm: z.boolean().optional().meta({ description: 'true to forget by query' }),
  })
  .superRefine((input, context) => {
    const given = [input.id, input.session_id, input.query].filter((value) => value !== undefined).length;
    if (given !== 1) {
      context.addIssue({
        code: 'custom',
        path: ['id'],
        message: 'give exactly one of id, session_id or query',
      });
    }
  });

const summariseMemory = (memory: z.output<typeof MemoryRecordSchema>) =>
  `${memory.tier} ${memory.id}: ${memory.content.length > 120 ? `${memory.content.slice(0, 117)}…` : memory.content}`;

/**
 * The memory worker: the caller's own memories in four tiers (SPEC 2.9) through the brain's memory service. The
 * subject is always the caller (`user:<id>`): a player remembers, recalls, lists and forgets only their own. Like
 * the /brain/memory routes, it needs identity tier 1; the service token, which names subjects there, gets none of
 * these tools (they act as a user).
 */
export function memoryWorker(memory: MemoryService): Worker {
  return {
    name: 'memory',
    description:
      'Your own memories: remember, recall by meaning, list and forget (working, episodic, semantic, archival).',
    stores: ['mongo', 'qdrant'],
    prompts: [
      {
        name: 'summarise_memories',
        title: 'Summarise what I remember',
        description: 'Summarise what your memories hold about a topic.',
        arguments: [{ name: 'topic', description: 'What the summary is about', required: true }],
        access: ACCESS.registeredPlayer,
        render: ({ topic }) =>
          `Summarise what I remember about: ${topic}\n` +
          'Recall with memory_recall (query: the topic; try a second, broader query if the first finds little). ' +
          'Summarise only what the hits say, newest first where they disagree, and say plainly when nothing is ' +
          'remembered.',
      },
    ],
    tools: [
      defineTool({
        name: 'memory_remember',
        title: 'Remember something',
        description:
          'Stores a memory of yours (default tier episodic; working needs session_id). A near-duplicate of an ' +
          'existing memory merges into it (merged: true) instead of being stored twice, so a retry does not ' +
          'duplicate. Secrets such as keys and passwords are refused or redacted. Returns the memory with its id.',
        input: RememberInput,
        output: RememberResponseSchema,
        annotations: ACTS,
        access: ACCESS.registeredPlayer,
        callsPerMinute: 60,
        handler: async (input, { caller }) => {
          const { occurred_at: occurred, ...rest } = input;
          const { memory: saved, merged } = await memory.remember({
            ...rest,
            subject: subjectOf(caller),
            occurred_at: occurred ? new Date(occurred) : undefined,
          });
          return { ...presentMemory(saved), merged };
        },
        summarise: (saved) => `${saved.merged ? 'Merged into' : 'Remembered'} ${summariseMemory(saved)}`,
      }),
      defineTool({
        name: 'memory_recall',
        title: 'Recall my memories',
        description:
          'Your memories most relevant to a query, ranked across tiers by meaning and keywords, recency and ' +
          'importance, best first, each with its score and age. Use it before answering from what you were told ' +
          'earlier.',
        input: RecallInput,
        output: RecallResponseSchema,
        annotations: READ_ONLY,
        access: ACCESS.registeredPlayer,
        handler: async (input, { caller }) => {
          const { as_of: asOf, ...rest } = input;
          const result = await memory.recall({
            ...rest,
            subject: subjectOf(caller),
            as_of: asOf ? new Date(asOf) : undefined,
          });
          return presentRecall(result);
        },
        summarise: ({ hits }) =>
          hits.length === 0
            ? 'Nothing recalled.'
            : `${hits.length} memories:\n` +
              hits
                .slice(0, 5)
                .map((hit, index) => `${index + 1}. ${summariseMemory(hit)}`)
                .join('\n'),
      }),
      defineTool({
        name: 'memory_list',
        title: 'List my memories',
        description:
          'Your stored memories, newest first, optionally by tier, conversation or tags. Page with next_cursor.',
        input: ListInput,
        output: MemoryListSchema,
        annotations: READ_ONLY,
        access: ACCESS.registeredPlayer,
        handler: async (input, { caller }) => {
          const page = await memory.list({ ...input, subject: subjectOf(caller) });
          return { memories: page.memories.map(presentMemory), next_cursor: page.next_cursor };
        },
        summarise: (page) =>
          page.memories.length === 0
            ? 'No memories.'
            : `${page.memories.length} memories, newest: ${summariseMemory(page.memories[0])}` +
              (page.next_cursor ? '; more with next_cursor.' : ''),
      }),
      defineTool({
        name: 'memory_forget',
        title: 'Forget my memories',
        description:
          'Removes memories of yours from every store: one by id, a whole conversation by session_id, or ' +
          'everything a query recalls (confirm: true). Cannot be undone. Returns the ids forgotten (none when ' +
          'nothing matched).',
        input: ForgetInput,
        output: ForgetResponseSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.registeredPlayer,
        handler: async (input, { caller }) => {
          if (input.query !== undefined && input.confirm !== true) {
            throw memoryError('MEMORY_FORGET_UNCONFIRMED', 'Forgetting by query needs confirm: true');
          }
          const target =
            input.id !== undefined
              ? { id: input.id }
              : input.session_id !== undefined
                ? { session_id: input.session_id }
                : { query: input.query! };
          return { forgotten: await memory.forget(subjectOf(caller), target) };
        },
        summarise: ({ forgotten }) =>
          forgotten.length === 0
            ? 'Nothing to forget.'
            : `Forgot ${forgotten.length}: ${forgotten.join(', ')}.`,
      }),
      ...(memory.working ? [workingContextTool(memory.working.bind(memory))] : []),
    ],
  };
}

/**
 * `memory_working_context`: a conversation's working memory (the turns kept whole within its token budget, oldest
 * first), as `GET /brain/memory/working/:session_id`, of the caller's own subject.
 */
function workingContextTool(working: NonNullable<MemoryService['working']>) {
  return defineTool({
    name: 'memory_working_context',
    title: 'A conversation’s working memory',
    description:
      'The working memory of one of your conversations (session_id, as you gave it to memory_remember with ' +
      'tier working): its turns, oldest first, within the working tier’s token budget. Use it to pick up a ' +
      'conversation where it was left; memory_recall searches the other tiers.',
    input: z.strictObject({
      session_id: z.string().trim().min(1).max(200).meta({ description: 'The conversation' }),
    }),
    output: WorkingMemorySchema,
    annotations: READ_ONLY,
    access: ACCESS.registeredPlayer,
    handler: async ({ session_id: sessionId }, { caller }) => ({
      session_id: sessionId,
      memories: (await working(subjectOf(caller), sessionId)).map(presentMemory),
    }),
    summarise: ({ session_id: sessionId, memories }) =>
      memories.length === 0
        ? `No working memory for session ${sessionId}.`
        : `${memories.length} turns of ${sessionId}, oldest first:\n` +
          memories.map((turn) => `- ${turn.content.slice(0, 120)}`).join('\n'),
  });
}
