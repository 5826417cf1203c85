import { balanceReport, formatBalanceReport } from './balance';
import { loadWorld } from './loader';

/** `npm run world:report [dir]`: loads (and so validates) the world and prints its balance report. */
async function main(): Promise<void> {
  const world = await loadWorld(process.argv[2]);
  const report = balanceReport(world);
  process.stdout.write(`${formatBalanceReport(report)}\n`);
  if (report.problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
