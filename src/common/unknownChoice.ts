// The user's decision about requests of unknown outcome: re-send them, or record
// them as applied — for all of them or, after "Choose Requests…", for the ones
// picked (one request may have been applied and another not). No vscode import:
// the questions are passed in.

export type UnknownAnswer = 'resend' | 'applied' | 'choose' | undefined;

export interface UnknownDecision {
  action: 'resend' | 'applied';
  /** Request indexes the action is about (a subset of the unknown ones, ascending). */
  indexes: number[];
}

/**
 * Asks `ask` about `unknown` (offering "choose" only with more than one request);
 * on "choose", `choose` narrows the selection and the question is asked again
 * about the narrowed set. Undefined when the user cancels anywhere.
 */
export async function decideUnknown(
  unknown: readonly number[],
  ask: (selected: readonly number[], canChoose: boolean) => Promise<UnknownAnswer>,
  choose: (selected: readonly number[]) => Promise<readonly number[] | undefined>,
): Promise<UnknownDecision | undefined> {
  let selected = [...new Set(unknown)].sort((a, b) => a - b);
  if (selected.length === 0) return undefined;
  for (;;) {
    const canChoose = selected.length > 1;
    const answer = await ask(selected, canChoose);
    if (answer === 'resend' || answer === 'applied') return { action: answer, indexes: selected };
    if (answer !== 'choose' || !canChoose) return undefined;
    const allowed = new Set(selected);
    const chosen = [...new Set(await choose(selected) ?? [])].filter((i) => allowed.has(i)).sort((a, b) => a - b);
    if (chosen.length === 0) return undefined;
    selected = chosen;
  }
}
