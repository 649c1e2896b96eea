// Child process of the kill test in bulk-values-before.test.ts (not a test file itself):
// does what Send does for a new job: creates the journal (values before expected), then
// reads the values before (slow: the sandbox delays reads) and writes them beside the
// journal, then runs the job. It prints the journal's path as soon as it exists.
// Usage: node --import tsx bulk-child-values.ts <baseUrl> <journalDir> <idsJson> <days>
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, planJob, runJob } from '../../src/bulk';
import { readValues } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';

async function main(): Promise<void> {
  const [baseUrl, dir, idsJson, days] = process.argv.slice(2);
  if (!baseUrl || !dir || !idsJson || !days) throw new Error('usage: bulk-child-values <baseUrl> <journalDir> <idsJson> <days>');
  const ids = JSON.parse(idsJson) as string[];
  const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: Number(days) }, baseUrl, maxIdsPerRequest: 5 });
  const client = new ServiceClient({ baseUrl, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  const journal = await JobJournal.create(dir, { source: { uri: 'untitled:kill-values.workitems.json', text: idsJson }, plan, valuesBefore: 'expected' });
  process.stdout.write(`${journal.file}\n`);
  const values = await readValues((i, fields, o) => readWorkItems(client, i, { fields, signal: o.signal }), plan.ids, plan.parts[0]!.update);
  await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: values.fields, items: values.items, missing: values.missing });
  process.stdout.write('values written\n');
  await runJob(plan, { client, journal, concurrency: 1 });
  await client.close();
  process.stdout.write('done\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
