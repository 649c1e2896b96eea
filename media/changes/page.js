// The Before/After view's page script: keeps the document previewed in the webview state
// (the view comes back after a window reload) and posts button clicks (not of disabled buttons).
// @ts-check
(function () {
  // @ts-ignore acquireVsCodeApi is given by the webview host
  const vscode = acquireVsCodeApi();
  vscode.setState(document.body.dataset.document ? { document: document.body.dataset.document } : {});
  document.querySelectorAll('button[data-command]').forEach((b) => b.addEventListener('click', () => { if (!(/** @type {HTMLButtonElement} */ (b)).disabled) vscode.postMessage({ command: /** @type {HTMLElement} */ (b).dataset.command }); }));
})();
