// The Before/After view's page: keeps the document previewed in the webview state (the view
// comes back after a window reload), posts its buttons' presses, and paints its table
// (src/webview/web/page.ts). Bundled by esbuild.js for the browser (dist/web/changes.js).
import { onMessages, pageApi } from '../../webview/web/vscodeApi';
import { startPostedTable, wireButtons } from '../../webview/web/page';
import { PREVIEW_BUTTONS, previewState, type PreviewFromWebview, type PreviewToWebview, type PreviewViewState } from '../model/protocol';

const api = pageApi<PreviewFromWebview, PreviewViewState>();
api.setState(previewState(document.body.dataset.document));
wireButtons(PREVIEW_BUTTONS, (m) => api.post(m));
startPostedTable((m) => api.post(m), onMessages<PreviewToWebview>);
