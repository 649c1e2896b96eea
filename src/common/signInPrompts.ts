// The interactive half of sign-in: quick pick of the method, then input boxes.
// Nothing entered here is logged or written to settings.
import * as vscode from 'vscode';
import type { SignInMethod, SignInPrompts } from './connection';
import type { AuthMethod } from './config';

interface MethodItem extends vscode.QuickPickItem {
  method: SignInMethod;
}

export const windowSignInPrompts: SignInPrompts = {
  async pickMethod(info, preferred: AuthMethod, reason) {
    const items: MethodItem[] = [
      {
        method: 'token',
        label: vscode.l10n.t('$(key) Login Name and Password'),
        detail: vscode.l10n.t('Gets a token with POST /auth/token; only the token is stored (recommended).'),
      },
      {
        method: 'pasteToken',
        label: vscode.l10n.t('$(clippy) Paste a Token'),
        detail: vscode.l10n.t('Uses a token you already have.'),
      },
      {
        method: 'basic',
        label: vscode.l10n.t('$(lock) Basic Authentication'),
        detail: vscode.l10n.t('Sends the login name and password with every request; both are stored in the secret storage.'),
      },
      {
        method: 'apiKey',
        label: vscode.l10n.t('$(symbol-key) API Key'),
        detail: vscode.l10n.t('Sends an API key you generated in your user settings of the service (X-TT-ApiKey header); the key is stored in the secret storage.'),
      },
    ];
    if (preferred === 'basic') items.unshift(...items.splice(2, 1));
    if (preferred === 'apiKey') items.unshift(...items.splice(3, 1));
    const title =
      reason === 'unauthorized'
        ? vscode.l10n.t('Sign in again to {0} (the service answered 401)', info.label)
        : vscode.l10n.t('Sign in to {0}', info.label);
    // Kept open when focus moves (e.g. to a tree row): every load waiting to sign in shares this prompt.
    // Closing it (Escape, or another quick input replacing it) resolves undefined: a dismissal.
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('How do you want to sign in?'), ignoreFocusOut: true });
    return pick?.method;
  },
  askLoginName(info, previous) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0}', info.label),
        prompt: vscode.l10n.t('Login name'),
        value: previous,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a login name.') : v.includes(':') ? vscode.l10n.t('A login name cannot contain a colon.') : undefined),
      }),
    );
  },
  askPassword(info, loginName) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0}', info.label),
        prompt: vscode.l10n.t('Password for {0}', loginName),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.includes(':') ? vscode.l10n.t('A password cannot contain a colon.') : undefined),
      }),
    );
  },
  askToken(info) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0}', info.label),
        prompt: vscode.l10n.t('Paste the access token'),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Paste a token.') : /\s/.test(v.trim()) ? vscode.l10n.t('A token contains no spaces.') : undefined),
      }),
    );
  },
  askApiKey(info) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: vscode.l10n.t('Sign in to {0}', info.label),
        prompt: vscode.l10n.t('Paste the API key (generated in your user settings of the service)'),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) =>
          v.trim() === '' ? vscode.l10n.t('Paste an API key.') : !/^[\x21-\x7e]+$/.test(v.trim()) ? vscode.l10n.t('An API key contains no spaces and only ASCII characters.') : undefined,
      }),
    );
  },
};
