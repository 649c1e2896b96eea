// The result view's page: keeps the job shown in the webview state (the view comes back after
// a window reload), posts its buttons' presses, and paints its before/after table from the
// data in the page (src/webview/web/page.ts). Bundled by esbuild.js for the browser
// (dist/web/results.js).
import { pageApi } from '../../../webview/web/vscodeApi';
import { startEmbeddedTable, wireButtons } from '../../../webview/web/page';
import { RESULT_BUTTONS, resultState, type ResultFromWebview, type ResultViewState } from '../../model/resultProtocol';

const api = pageApi<ResultFromWebview, ResultViewState>();
api.setState(resultState(document.body.dataset.jobId));
wireButtons(RESULT_BUTTONS, (m) => api.post(m));
startEmbeddedTable();
