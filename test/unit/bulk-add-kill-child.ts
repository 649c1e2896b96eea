// Child process of the kill tests in bulk-add-kill.test.ts (not a test file itself): plans a
// change of the requests given, creates its journal (printing its path first) and runs it, one
// request at a time, until it ends or is killed.
// Usage: node --import tsx bulk-add-kill-child.ts <baseUrl> <journalDir> <requestsJson>
import { ServiceClient } from '../../src/api/client';
import { JobJournal, planChange, runJob, type ChangeRequest } from '../../src/bulk';

async function main(): Promise<void> {
  const [baseUrl, dir, requestsJson] = process.argv.slice(2);
  if (!baseUrl || !dir || !requestsJson) throw new Error('usage: bulk-add-kill-child <baseUrl> <journalDir> <requestsJson>');
  const plan = planChange({ requests: JSON.parse(requestsJson) as ChangeRequest[], baseUrl });
  const journal = await JobJournal.create(dir, { source: { uri: 'untitled:kill-adds.workitems.json', text: requestsJson }, plan });
  process.stdout.write(`${journal.file}\n`);
  const client = new ServiceClient({ baseUrl, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  // 1200 calls a minute: the reads and POSTs of the adds 50 ms apart, so a kill falls between any two steps.
  await runJob(plan, { client, journal, concurrency: 1, requestsPerMinute: 1200 });
  await client.close();
  process.stdout.write('done\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
