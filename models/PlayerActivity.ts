import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * What the quests brain counts of a player's world events (collection `playeractivities`, one per user), for the
 * play-style inference: kills, deaths, conversations, trades and quests completed, each one `$inc` per event.
 */
export interface PlayerActivityRecord {
  _id: string;
  kills: number;
  deaths: number;
  conversations: number;
  trades: number;
  quests: number;
  updatedAt: Date;
}

const playerActivitySchema = new Schema<PlayerActivityRecord>(
  {
    _id: { type: String, required: true },
    kills: { type: Number, default: 0 },
    deaths: { type: Number, default: 0 },
    conversations: { type: Number, default: 0 },
    trades: { type: Number, default: 0 },
    quests: { type: Number, default: 0 },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

/** The `playeractivities` collection on `connection`. */
export const playerActivityModel = (connection: Connection) =>
  modelFor(connection, 'PlayerActivity', playerActivitySchema);

/** Deaths per room (collection `roomdeaths`, `_id` the room ref): where players die. */
export interface RoomDeathsRecord {
  _id: string;
  deaths: number;
  last_at: Date;
}

const roomDeathsSchema = new Schema<RoomDeathsRecord>(
  {
    _id: { type: String, required: true },
    deaths: { type: Number, default: 0 },
    last_at: { type: Date, required: true },
  },
  { versionKey: false },
);

/** The `roomdeaths` collection on `connection`. */
export const roomDeathsModel = (connection: Connection) =>
  modelFor(connection, 'RoomDeaths', roomDeathsSchema);
