import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One received message: envelope recipient, subject and the decoded text body. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/** Decodes a quoted-printable body (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(body: string): string {
  return Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

function parseMessage(to: string, raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(headers)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/** A real SMTP server on a random loopback port that keeps what it receives, for email sign-in tests. */
export class SmtpInbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        for (const recipient of session.envelope.rcptTo)
          this.receive(parseMessage(recipient.address, Buffer.concat(chunks).toString('utf8')));
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** The next message to `to` (already received and not yet taken, or the next to arrive). */
  next(to: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const index = this.messages.findIndex((mail) => mail.to === to);
    if (index >= 0) return Promise.resolve(this.messages.splice(index, 1)[0] as ReceivedMail);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ to, resolve: (mail) => (clearTimeout(timer), resolve(mail)) });
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(mail: ReceivedMail): void {
    const waiter = this.waiters.find((w) => w.to === mail.to);
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(mail);
    } else this.messages.push(mail);
  }
}

/** The verification code in a verification mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = /verification code is:\n\n(\S+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
}
