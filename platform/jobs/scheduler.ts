import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';

/** A service's job definitions: called once with the scheduler so it can `define` (and `every`) its jobs. */
export type JobRegistrar = (agenda: Agenda) => void | Promise<void>;

export interface SchedulerOptions {
  mongo: Connection;
  logger: Logger;
  /** Name recorded on locked jobs (default: `forge-<pid>`). */
  name?: string;
  /** How often the worker polls for due jobs (default 5 s). */
  processEvery?: string | number;
  registrars: JobRegistrar[];
}

/**
 * Background jobs on Agenda with its MongoDB backend (jobs in the `agendaJobs` collection; locks coordinate several
 * worker processes). Every role can schedule jobs; only the worker role calls `start()` to process them. A job a
 * worker process schedules for now runs at once (an in-process notification channel); jobs other processes
 * schedule are found by the poll every `processEvery`.
 */
export class Scheduler {
  readonly agenda: Agenda;
  private started = false;

  private constructor(agenda: Agenda) {
    this.agenda = agenda;
  }

  static async create(options: SchedulerOptions): Promise<Scheduler> {
    const db = options.mongo.db;
    if (!db) throw new Error('Scheduler needs a connected MongoDB');
    const agenda = new Agenda({
      backend: new MongoBackend({ mongo: db }),
      name: options.name ?? `forge-${process.pid}`,
      processEvery: options.processEvery ?? '5 seconds',
      notificationChannel: new InMemoryNotificationChannel(),
    });
    const log = options.logger.child({ component: 'jobs' });
    agenda.on('error', (error: Error) => log.error({ err: error }, 'scheduler error'));
    agenda.on('fail', (error: Error, job: { attrs: { name: string } }) =>
      log.error({ err: error, job: job.attrs.name }, 'job failed'),
    );
    await agenda.ready;
    for (const register of options.registrars) await register(agenda);
    return new Scheduler(agenda);
  }

  /** Starts processing due jobs (worker role). */
  async start(): Promise<void> {
    await this.agenda.start();
    this.started = true;
  }

  /** Lets running jobs finish for up to `timeoutMs`, then stops polling and unlocks what is left. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    await this.agenda.drain(timeoutMs);
    await this.agenda.stop();
    this.started = false;
  }
}
