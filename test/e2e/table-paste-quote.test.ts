// Browser E2E in a real workbench: a block pasted into the work item table whose first
// cell starts with a quote that is never closed (text copied from an editor or a web
// page, not from Excel) is read as the rows it is: the quote stays a character of its
// cell, the next rows are not swallowed into that cell, and only the pasted cells are
// edited (nothing beyond the block, nothing of other rows).
import * as assert from 'node:assert/strict';
import { ENGLISH, TableFlow } from './table-flow';
import { Workbench } from './workbench';

const BLOCK = '"abc\tE2E-Q1\r\ndef\tE2E-Q2\r\nghi\tE2E-Q3\r\n';
/** A Name cell's text without the tree's toggle of a row with children. */
const name = (shown: string): string => shown.replace(/^[▾▸▹▿]\s*/, '');

describe('Work item table: paste of a block with an unclosed quote in a VS Code workbench', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let flow: TableFlow;

  before(async function () {
    this.timeout(15 * 60_000);
    wb = await Workbench.start({ settings: { 'workItemStudio.organizations': ['1001'] } });
    flow = new TableFlow(wb, ENGLISH);
  });

  after(async () => {
    await wb?.stop();
  });

  it('pastes three rows of Name and Code: the quote kept in the first cell, no row swallowed, nothing else edited', async () => {
    await flow.open();
    const rows = 5;
    const before = await Promise.all(Array.from({ length: rows }, async (_, r) => [name(await flow.cellText(r, 0)), await flow.cellText(r, 1), await flow.cellText(r, 2)]));
    const expectName = async (r: number, value: string, what: string): Promise<void> => {
      await wb.expectVisible(flow.table.locator(`#rows .row[data-r="${r}"] .cell.edited[data-c="0"]`), what);
      assert.equal(name(await flow.cellText(r, 0)), value, what);
      assert.equal(await flow.cell(r, 0).getAttribute('title'), ENGLISH.editedBefore(before[r]![0]!), `${what}: the value before on hover`);
    };
    await flow.cell(0, 0).click();
    await flow.expectFocus(0, 0, 'the first Name cell focused');
    await flow.table.evaluate(`navigator.clipboard.writeText(${JSON.stringify(BLOCK)})`);
    assert.equal(await flow.clipboard(), BLOCK, 'the block on the clipboard');
    await flow.press('Control+V');
    await wb.expectVisible(flow.table.locator('#edits', { hasText: ENGLISH.editedCells(6) }), `"${ENGLISH.editedCells(6)}" in the bar: two cells of each of three rows`);
    await expectName(0, '"abc', 'the first Name, its quote read as text');
    await flow.expectEdited(0, 1, 'E2E-Q1', before[0]![1]!, 'the first Code (not swallowed into the Name)');
    await expectName(1, 'def', 'the second Name');
    await flow.expectEdited(1, 1, 'E2E-Q2', before[1]![1]!, 'the second Code');
    await expectName(2, 'ghi', 'the third Name');
    await flow.expectEdited(2, 1, 'E2E-Q3', before[2]![1]!, 'the third Code');
    // Nothing beyond the block: the Type column and the rows below keep their values, unmarked.
    for (let r = 0; r < rows; r++) {
      assert.equal(await flow.cellText(r, 2), before[r]![2], `row ${r}: the column right of the block unchanged`);
      if (r >= 3) assert.deepEqual([name(await flow.cellText(r, 0)), await flow.cellText(r, 1)], before[r]!.slice(0, 2), `row ${r} below the block unchanged`);
    }
    assert.equal(await flow.table.locator('#rows .cell.edited').count(), 6, 'only the six pasted cells are marked edited');
    assert.ok(!(await flow.cellText(0, 0)).includes('def'), 'the next rows are not in the first cell');
  });
});
