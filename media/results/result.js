// The result view's page script: keeps the job shown in the webview state (the view comes
// back after a window reload) and posts button clicks.
// @ts-check
(function () {
  // @ts-ignore acquireVsCodeApi is given by the webview host
  const vscode = acquireVsCodeApi();
  vscode.setState(document.body.dataset.jobId ? { jobId: document.body.dataset.jobId } : {});
  document.querySelectorAll('button[data-command]').forEach((b) => b.addEventListener('click', () => vscode.postMessage({ command: /** @type {HTMLElement} */ (b).dataset.command })));
})();
