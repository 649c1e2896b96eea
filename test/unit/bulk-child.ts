// Child process of the kill test in bulk-resume.test.ts (not a test file itself):
// plans and runs a bulk job with a journal, printing the journal's path first.
// Usage: node --import tsx bulk-child.ts <baseUrl> <journalDir> <idsJson> <days> <perRequest> [change]
// With `change`: a change set of two requests, the first half of the IDs shifted by <days>,
// the second half by twice as many.
import { ServiceClient } from '../../src/api/client';
import { JobJournal, planChange, planJob, runJob } from '../../src/bulk';

async function main(): Promise<void> {
  const [baseUrl, dir, idsJson, days, per, mode] = process.argv.slice(2);
  if (!baseUrl || !dir || !idsJson || !days || !per) throw new Error('usage: bulk-child <baseUrl> <journalDir> <idsJson> <days> <perRequest>');
  const ids = JSON.parse(idsJson) as string[];
  const half = Math.ceil(ids.length / 2);
  const plan =
    mode === 'change'
      ? planChange({
          requests: [
            { workItemIds: ids.slice(0, half), update: { moveScheduleDays: Number(days) } },
            { workItemIds: ids.slice(half), update: { moveScheduleDays: 2 * Number(days) } },
          ],
          baseUrl,
          maxIdsPerRequest: Number(per),
        })
      : planJob({ workItemIds: ids, update: { moveScheduleDays: Number(days) }, baseUrl, maxIdsPerRequest: Number(per) });
  const journal = await JobJournal.create(dir, { source: { uri: 'untitled:kill-test.workitems.json', text: idsJson }, plan });
  process.stdout.write(`${journal.file}\n`);
  const client = new ServiceClient({ baseUrl, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  await runJob(plan, { client, journal, concurrency: 1 }); // default pacing
  await client.close();
  process.stdout.write('done\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
