// Browser E2E of the work item table in Japanese (display language ja, as japanese.test.ts
// runs it): the flow of table-flow.ts with the Japanese texts. The table's headers, its filter
// bar (hint, buttons, count of matches), the edited cells' marks, the review pick and the
// Before/After tabs must be Japanese; the filter is written with Japanese field names, a user
// by name and full-width characters. Saves the README's *-ja screenshots with UPDATE_SCREENSHOTS=1.
import { JAPANESE, TableFlow } from './table-flow';
import { Workbench } from './workbench';

describe('Work item table in a VS Code workbench in Japanese', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let flow: TableFlow;

  before(async function () {
    this.timeout(15 * 60_000);
    // The root organization picked (as in the Organizations view): the table shows users by name.
    wb = await Workbench.start({ locale: 'ja', settings: { 'workItemStudio.organizations': ['1001'] } });
    flow = new TableFlow(wb, JAPANESE);
  });

  after(async () => {
    await wb?.stop();
  });

  it('opens the table of a project from the Work Items view (作業項目テーブルを開く), headers and bar in Japanese', async () => {
    await flow.open();
    await flow.checkTexts();
    await flow.shoot('table');
  });

  it('counts the matches of ステータス:未着手 リーダー:管理者 終了＜２０２６－０５－２０ as it is typed and narrows the rows on Enter', async () => {
    await flow.filter();
    await flow.checkTexts();
    await flow.shoot('table-filter');
  });

  it('edits with the keyboard only and pastes a block from Excel (７時間３０分, ５０％); the marks are Japanese', async () => {
    await flow.keyboard();
    await flow.checkTexts();
    await flow.shoot('table-edited');
  });

  it('変更を確認: the edits as three request documents in the Before/After view (変更前/変更後)', async () => {
    await flow.review();
  });
});
