// A short multi-step QuickInput: each step a QuickPick or an InputBox titled with its
// step number ("Set Status (2/3)"), a Back button from the second step on, and the
// validation message inline under the input. Scripted answers (tests, automation:
// the command's `answers` argument) replace the inputs they name and go through the
// same checks; a scripted answer that fails a check is an error naming the step.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';

export type StepResult = 'next' | 'back' | 'cancel';

export interface PickOption<T> extends vscode.QuickPickItem {
  value: T;
}

/** Answers by step key: text for an input, the value (or text a picker's `fromScript` reads) for a pick. */
export type ScriptedAnswers = Record<string, unknown>;

export class FormInput {
  step = 1;
  total = 1;

  constructor(
    readonly title: string,
    readonly scripted?: ScriptedAnswers,
  ) {}

  private heading(): string {
    return this.total > 1 ? `${this.title} (${this.step}/${this.total})` : this.title;
  }

  private scriptedAnswer(key: string): { given: boolean; value: unknown } {
    if (!this.scripted) return { given: false, value: undefined };
    if (!(key in this.scripted)) throw new UserInputError(vscode.l10n.t('{0}: no answer was given for "{1}".', this.title, key));
    return { given: true, value: this.scripted[key] };
  }

  /** One choice (or several with `many`); `fromScript` reads a scripted answer: the value, or a message. */
  async pick<T>(
    key: string,
    o: { placeholder: string; items: PickOption<T>[]; many?: boolean; fromScript: (answer: unknown) => T | T[] | string },
  ): Promise<{ value: T[] } | 'back' | 'cancel'> {
    const s = this.scriptedAnswer(key);
    if (s.given) {
      const v = o.fromScript(s.value);
      if (typeof v === 'string') throw new UserInputError(`${this.heading()}: ${v}`);
      return { value: Array.isArray(v) ? v : [v] };
    }
    const qp = vscode.window.createQuickPick<PickOption<T>>();
    qp.title = this.heading();
    qp.placeholder = o.placeholder;
    qp.items = o.items;
    qp.canSelectMany = !!o.many;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.ignoreFocusOut = true;
    qp.buttons = this.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    return new Promise((resolve) => {
      let done = false;
      const finish = (r: { value: T[] } | 'back' | 'cancel'): void => {
        if (done) return;
        done = true;
        resolve(r);
        qp.dispose();
      };
      qp.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish('back');
      });
      qp.onDidAccept(() => {
        const chosen = o.many ? qp.selectedItems : qp.activeItems.slice(0, 1);
        if (chosen.length === 0) return;
        finish({ value: chosen.map((c) => c.value) });
      });
      qp.onDidHide(() => finish('cancel'));
      qp.show();
    });
  }

  /** Text checked by `validate` (a message, or undefined when the text is good) as it is typed and on Enter. */
  async text(key: string, o: { prompt: string; placeholder?: string; value?: string; validate: (text: string) => string | undefined }): Promise<{ value: string } | 'back' | 'cancel'> {
    const s = this.scriptedAnswer(key);
    if (s.given) {
      const text = typeof s.value === 'number' ? String(s.value) : typeof s.value === 'string' ? s.value : '';
      const problem = o.validate(text);
      if (problem) throw new UserInputError(`${this.heading()}: ${problem}`);
      return { value: text };
    }
    const box = vscode.window.createInputBox();
    box.title = this.heading();
    box.prompt = o.prompt;
    box.placeholder = o.placeholder;
    box.value = o.value ?? '';
    box.ignoreFocusOut = true;
    box.buttons = this.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    return new Promise((resolve) => {
      let done = false;
      const finish = (r: { value: string } | 'back' | 'cancel'): void => {
        if (done) return;
        done = true;
        resolve(r);
        box.dispose();
      };
      box.onDidChangeValue((v) => {
        // Empty while typing starts: no message yet (Enter on an empty box shows it).
        box.validationMessage = v.trim() === '' ? undefined : o.validate(v);
      });
      box.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish('back');
      });
      box.onDidAccept(() => {
        const problem = o.validate(box.value);
        box.validationMessage = problem;
        if (!problem) finish({ value: box.value });
      });
      box.onDidHide(() => finish('cancel'));
      box.show();
    });
  }
}

/** Runs the steps in order (Back goes to the one before); true when the last step finished. `steps()` is asked again after each step: a choice may change what follows. */
export async function runSteps<S>(input: FormInput, state: S, steps: (state: S) => ((input: FormInput, state: S) => Promise<StepResult>)[]): Promise<boolean> {
  let i = 0;
  for (;;) {
    const list = steps(state);
    if (i >= list.length) return true;
    input.step = i + 1;
    input.total = list.length;
    const r = await list[i]!(input, state);
    if (r === 'cancel') return false;
    i = r === 'back' ? Math.max(0, i - 1) : i + 1;
  }
}
