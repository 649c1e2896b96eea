// The API VS Code gives a webview's page, typed by what the page posts and keeps: the page
// posts only messages of its view's protocol, and reads those the extension posts to it.
import type { Envelope } from '../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}
// Given by the webview host, once per page.
declare function acquireVsCodeApi(): VsCodeApi;

export interface PageApi<Out extends Envelope, State> {
  post(message: Out): void;
  setState(state: State): void;
}

/** The page's API (call once). */
export function pageApi<Out extends Envelope, State>(): PageApi<Out, State> {
  const api = acquireVsCodeApi();
  return { post: (m) => api.postMessage(m), setState: (s) => api.setState(s) };
}

/** The messages the extension posts to the page (objects with a `type`; anything else is dropped). */
export function onMessages<In extends Envelope>(handle: (message: In) => void): void {
  window.addEventListener('message', (e: MessageEvent<unknown>) => {
    const m = e.data;
    if (typeof m === 'object' && m !== null && typeof (m as { type?: unknown }).type === 'string') handle(m as In);
  });
}
