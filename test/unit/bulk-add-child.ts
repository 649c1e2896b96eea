// Child process of the kill test in bulk-add-resume.test.ts (not a test file itself): plans
// and runs a change of an update, an add and another update with a journal, printing the
// journal's path first.
// Usage: node --import tsx bulk-add-child.ts <baseUrl> <journalDir> <idsJson> <days> <parentId> <name>
import { ServiceClient } from '../../src/api/client';
import { JobJournal, planChange, runJob } from '../../src/bulk';

async function main(): Promise<void> {
  const [baseUrl, dir, idsJson, days, parentId, name] = process.argv.slice(2);
  if (!baseUrl || !dir || !idsJson || !days || !parentId || !name) throw new Error('usage: bulk-add-child <baseUrl> <journalDir> <idsJson> <days> <parentId> <name>');
  const ids = JSON.parse(idsJson) as string[];
  const half = Math.ceil(ids.length / 2);
  const plan = planChange({
    requests: [
      { workItemIds: ids.slice(0, half), update: { moveScheduleDays: Number(days) } },
      {
        workItemIds: [],
        update: {},
        kind: 'add',
        add: { parentId, item: { fields: { ItemTypeId: '41', Name: name }, subItems: [{ fields: { ItemTypeId: '42', Name: `${name} 1` } }, { fields: { ItemTypeId: '42', Name: `${name} 2` } }] } },
      },
      { workItemIds: ids.slice(half), update: { moveScheduleDays: Number(days) } },
    ],
    baseUrl,
    maxIdsPerRequest: 5,
  });
  const journal = await JobJournal.create(dir, { source: { uri: 'untitled:kill-add.workitems.json', text: idsJson }, plan });
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
