// Why a template cannot be made as asked: an English message key (the UI localizes it
// with its arguments, src/templates/messages.ts) and its arguments. No vscode import.

/** Every message a template's model gives (the UI has a localized sentence for each). */
export const TEMPLATE_MESSAGES = [
  '"{0}" is not a date (yyyy-MM-dd).',
  '{0} is not a day of the calendar.',
  '"{0}" (ID {1}) and the items below it have no planned dates: leave the start date empty.',
  'Too many items for one add: the copy of "{0}" has {1}, the service adds at most {2} in one request. Copy its sub-folders one at a time.',
  'The copy of "{0}" is {1} levels deep: below "{2}" (level {3}) the service allows {4} levels, so at most {5} fit.',
  '"{0}" (ID {1}) is on level {2}, the deepest the service allows ({2} levels): nothing can be added below it.',
  'The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.',
  'The item type "{0}" (ID {1}) of "{2}" (ID {3}) is not in the profile of the destination project {4}.',
  '"{0}" (ID {1}) has no item type in what the service answered.',
  '"{0}" is a folder and "{1}" (ID {2}) is not: a folder can only be added below a folder.',
  'A copy cannot go below the item it copies or below one of its sub-items: "{0}" (ID {1}) is in the subtree of "{2}".',
  '"{0}" (ID {1}) is deleted.',
] as const;

export type TemplateMessage = (typeof TEMPLATE_MESSAGES)[number];

export interface TemplateProblem {
  message: TemplateMessage;
  args: string[];
}
