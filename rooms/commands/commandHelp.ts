/** One command of the command line, as `help` describes it. */
export interface CommandHelp {
  command: string;
  usage: string;
  summary: string;
  aliases: string[];
}

const c = (command: string, usage: string, summary: string, aliases: string[] = []): CommandHelp => ({
  command,
  usage,
  summary,
  aliases,
});

/** What `help` says about each command (the verbs `commandLine.ts` understands). */
export const COMMAND_HELP: CommandHelp[] = [
  c('look', 'look [thing]', 'Describe the room, or look closely at something in it.', ['l']),
  c('go', 'go <direction>', 'Walk through an exit: north, south, east, west, up, down, in, out.', [
    'n',
    's',
    'e',
    'w',
    'u',
    'd',
    'move',
  ]),
  c('examine', 'examine <thing>', 'A closer look at a creature, person, item or feature of the room.', [
    'x',
    'ex',
  ]),
  c('attack', 'attack <creature>', 'Start a fight. Blows are exchanged every combat round.', [
    'kill',
    'k',
    'fight',
  ]),
  c('consider', 'consider <creature>', 'Size a creature up: how dangerous is it for you?', ['con']),
  c('flee', 'flee', 'Try to escape a fight through a random exit.'),
  c('rest', 'rest', 'Sit down and recover health faster. Rooms of rest double it.'),
  c('talk', 'talk <npc>', 'Speak with someone: they greet you, offer work and wares.'),
  c('ask', 'ask <npc> about <topic>', 'A dialogue choice: how you ask can warm or cool them toward you.'),
  c('take', 'take [n] <item>', 'Pick up items from the floor.', ['get']),
  c('drop', 'drop [n] <item>', 'Put items down.'),
  c(
    'give',
    'give [n] <item> to <someone>',
    'Hand items to a player or an NPC (one unless you say how many).',
  ),
  c('equip', 'equip <item>', 'Wield a weapon or wear armour.', ['wield', 'wear']),
  c('use', 'use <item>', 'Eat, drink or apply a healing item.', ['eat', 'drink']),
  c('inventory', 'inventory', 'What you carry and wear, and your coins.', ['i', 'inv']),
  c('craft', 'craft <recipe>', 'Make something from ingredients; some recipes need a station.'),
  c('recipes', 'recipes', 'The recipes you know, what they need and what you have.'),
  c('buy', 'buy <item> [from <npc>]', 'Buy from a merchant in the room.'),
  c('sell', 'sell [n] <item> [to <npc>]', 'Sell items to a merchant who trades in them.'),
  c(
    'trade',
    'trade list [n] <item> for <price> | browse [words] | mine | buy <n> | cancel <n>',
    "The platform's marketplace, through the broker in the village market: sell to and buy from other players.",
    ['market'],
  ),
  c('accept', 'accept [quest]', 'Take the work someone just offered you (or the quest you name).', ['yes']),
  c('complete', 'complete [quest]', 'Hand in a finished quest to whoever gave it.'),
  c(
    'quest',
    'quest accept|complete <quest>',
    'Take on or hand in a quest at its giver ("quest <name>" takes it).',
  ),
  c('quests', 'quests', 'Your quest log: what you are doing and what is left.', ['journal']),
  c('score', 'score', 'Your level, experience, health, coins, skills and path.', ['stats']),
  c('map', 'map', 'A map of the rooms around you that you have visited, and where their exits lead.'),
  c('tutorial', 'tutorial', 'A hint for where you stand and your next step.', ['hint']),
  c('who', 'who', 'Who is in this area and where.'),
  c('say', 'say <text>', 'Speak to everyone in the room (and answer riddles).', ["'", 'answer']),
  c('emote', 'emote <action>', 'Act something out: "emote waves" shows "Ann waves."', [':', 'me']),
  c('whisper', 'whisper <player> <text>', 'Speak to one player in the room; nobody else hears.'),
  c('shout', 'shout <text>', 'Call out to the whole area.'),
  c(
    'group',
    'group invite|accept|leave [player]',
    'Travel together: group members share kill credit and quest kills.',
  ),
  c(
    'companion',
    'companion talk|presence|swap|decline',
    'Speak with your companion, change how present it is, or answer a companion offer.',
  ),
  c('help', 'help [command|topic]', 'This help.'),
];
