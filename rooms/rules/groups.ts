import type { PlayerState } from '../state/PlayerState';
import { type SimContext, matchByName, requirePlayer } from './context';
import { reject } from './errors';

/**
 * Groups: players travelling together. `group invite <player>` (same room), `group accept`, `group leave`,
 * `group` (who is in it). A group has at most `GROUP_SIZE` members and is named by the id of the player who
 * formed it; membership is kept in each member's journal, so it survives moving between areas. Members in
 * the same room share kill credit (xp and kill objectives of quests).
 */

export const GROUP_SIZE = 4;

/** Members of `groupId` in this area. */
export function groupMembers(ctx: SimContext, groupId: string): PlayerState[] {
  const out: PlayerState[] = [];
  ctx.state.players.forEach((p) => {
    if (ctx.journal(p.userId).group === groupId) out.push(p);
  });
  return out;
}

/** Group mates of `userId` standing in `roomRef` (not including them). */
export function groupMatesIn(ctx: SimContext, userId: string, roomRef: string): PlayerState[] {
  const group = ctx.journal(userId).group;
  if (!group) return [];
  return groupMembers(ctx, group).filter((p) => p.userId !== userId && p.roomRef === roomRef);
}

/** The `group` action. */
export function commandGroup(
  ctx: SimContext,
  userId: string,
  op: 'invite' | 'accept' | 'leave' | 'list',
  query?: string,
): void {
  const player = requirePlayer(ctx, userId);
  const journal = ctx.journal(userId);
  if (op === 'invite') {
    const others = [...ctx.state.players.values()].filter(
      (p) => p.userId !== userId && p.roomRef === player.roomRef,
    );
    const target = query ? matchByName(others, query, (p) => [p.userId, p.name]) : undefined;
    if (!target) throw reject('NO_SUCH_PLAYER', `There is nobody called "${query ?? ''}" here to invite.`);
    const groupId = journal.group ?? userId;
    if (ctx.journal(target.userId).group)
      throw reject('ALREADY_GROUPED', `${target.name} is already in a group.`);
    if (groupMembers(ctx, groupId).length >= GROUP_SIZE) throw reject('GROUP_FULL', `Your group is full.`);
    ctx.journal(target.userId).invite = groupId;
    journal.group = groupId;
    ctx.emit({
      type: 'group.invited',
      actor: { name: player.name, userId },
      target: { name: target.name, userId: target.userId },
      to: { userId },
    });
    ctx.emit({
      type: 'group.invited',
      actor: { name: player.name, userId },
      target: { name: target.name, userId: target.userId },
      to: { userId: target.userId },
    });
    return;
  }
  if (op === 'accept') {
    if (!journal.invite) throw reject('NO_INVITE', 'Nobody has invited you to a group.');
    if (journal.group) throw reject('ALREADY_GROUPED', 'Leave your group first.');
    const groupId = journal.invite;
    if (groupMembers(ctx, groupId).length >= GROUP_SIZE) throw reject('GROUP_FULL', 'That group is full.');
    journal.invite = undefined;
    journal.group = groupId;
    announce(ctx, groupId, { type: 'group.joined', actor: { name: player.name, userId } });
    return;
  }
  if (!journal.group) throw reject('NOT_IN_GROUP', 'You are not in a group.');
  const groupId = journal.group;
  if (op === 'leave') {
    announce(ctx, groupId, { type: 'group.left', actor: { name: player.name, userId } });
    journal.group = undefined;
    const rest = groupMembers(ctx, groupId);
    if (rest.length === 1) ctx.journal(rest[0].userId).group = undefined;
    return;
  }
  ctx.emit({ type: 'group.members', members: groupMembers(ctx, groupId).map((p) => p.name), to: { userId } });
}

function announce(
  ctx: SimContext,
  groupId: string,
  event: { type: 'group.joined' | 'group.left'; actor: { name: string; userId: string } },
): void {
  for (const member of groupMembers(ctx, groupId)) ctx.emit({ ...event, to: { userId: member.userId } });
}
