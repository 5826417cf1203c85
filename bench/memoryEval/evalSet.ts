/**
 * The paraphrase memory eval's data (`bench/memoryEval/*.json`), written before anything was measured on it: dated
 * sessions of chat per subject, and questions whose answer is one turn, asked in other words. Questions are split
 * into a tuning half and a held-out half by a fixed rule (the first byte of sha256(id): even tunes, odd is held out),
 * so a setting is chosen on one half and reported on the other.
 */
import { createHash } from 'node:crypto';
import jun from './junSessions.json';
import rowan from './rowanSessions.json';
import questionFile from './questions.json';

/** One session: its id (`A01`), day and turns in order. */
export interface EvalSession {
  id: string;
  date: string;
  turns: string[];
}

/** A subject's sessions. */
export interface EvalSubject {
  subject: string;
  sessions: EvalSession[];
}

/** A question; `answer` and `replaces` name turns as `<session>.<turn>` (0-based). */
export interface EvalQuestion {
  id: string;
  question: string;
  answer: string;
  /** The older turn a later one corrected (the newer turn is the answer). */
  replaces?: string;
}

/** A question about nothing the subject said: recall should answer nothing. */
export interface UnanswerableQuestion {
  id: string;
  subject: string;
  question: string;
}

export const EVAL_SUBJECTS: EvalSubject[] = [rowan, jun];
export const EVAL_QUESTIONS: EvalQuestion[] = questionFile.questions;
export const UNANSWERABLE_QUESTIONS: UnanswerableQuestion[] = questionFile.unanswerable;

/** Which half a question is in: `held-out` when the first byte of sha256(id) is odd. */
export function halfOf(id: string): 'tuning' | 'held-out' {
  return createHash('sha256').update(id).digest()[0] % 2 === 1 ? 'held-out' : 'tuning';
}

/** The subject whose sessions hold a turn (`A07.2` → the subject of session `A07`). */
export function subjectOf(turn: string): EvalSubject {
  const session = turn.split('.')[0];
  const found = EVAL_SUBJECTS.find((s) => s.sessions.some((x) => x.id === session));
  if (!found) throw new Error(`No session ${session}`);
  return found;
}

/** The text of a turn named `<session>.<turn>`. */
export function turnText(turn: string): string {
  const [session, index] = turn.split('.');
  const text = subjectOf(turn).sessions.find((s) => s.id === session)?.turns[Number(index)];
  if (text === undefined) throw new Error(`No turn ${turn}`);
  return text;
}

/** When a turn occurred: its session's day at 19:00 UTC plus a minute a turn. */
export function turnTime(date: string, index: number): Date {
  return new Date(Date.parse(`${date}T19:00:00.000Z`) + index * 60_000);
}
