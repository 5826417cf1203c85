/**
 * `npm run bot:example`: posts a sample block-game sync through the bot client. Reads BRAIN_API_URL (default
 * http://localhost:3000), BOT_INSTANCE_ID (default `example-bot`), BRAIN_SERVICE_TOKEN (required) and BRAIN_ENABLED
 * (default 1 here); the queue lives in `data/bot-example/`. Prints each batch's answer.
 */
import path from 'node:path';
import { botConfigFromEnv, SocialBotClient } from './src';

async function main(): Promise<void> {
  const config = botConfigFromEnv({
    BRAIN_API_URL: 'http://localhost:3000',
    BOT_INSTANCE_ID: 'example-bot',
    BRAIN_ENABLED: '1',
    ...process.env,
  });
  const client = await SocialBotClient.open({
    config,
    platform: 'minecraft',
    queueDir: path.join(process.cwd(), 'data', 'bot-example', config.botInstanceId),
    onResult: (result) => console.log(JSON.stringify(result)),
    onRejected: (seq, status, body) =>
      console.error(`batch ${seq} refused (${status}): ${JSON.stringify(body)}`),
  });
  client.record({ type: 'join', user_id: 'uuid-steve', name: 'Steve' });
  client.record({ type: 'join', user_id: 'uuid-alex', name: 'Alex' });
  client.record({ type: 'chat', user_id: 'uuid-steve', message: 'anyone want to trade diamonds for iron?' });
  client.record({
    type: 'trade',
    user_id: 'uuid-steve',
    target_user_id: 'uuid-alex',
    items: '3 diamonds for 40 iron',
  });
  client.record({ type: 'interaction', user_id: 'uuid-alex', target_user_id: 'uuid-steve', kind: 'help' });
  const report = await client.close();
  console.log(`delivered ${report.delivered} batch(es); ${report.pending} still queued on disk`);
  if (report.pending > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
