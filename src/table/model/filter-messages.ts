// The problems a table filter can have (the typed text and the structured form), each
// as a stable code with its English wording; the UI words the same codes in its language
// (src/table/filterBar.ts). No vscode import.

/**
 * What can be wrong with a filter, each with its English wording; {0}, {1}… are the
 * message's parameters (field names as the user wrote them, short excerpts of values).
 * The UI words the same codes in its language (src/table/filterBar.ts).
 */
export const FILTER_MESSAGES = {
  unknownField: 'unknown field "{0}"',
  mineNoUser: '"my items" needs the signed-in user, who is not known',
  noUser: 'no user matches "{0}"',
  noChoice: '{0} has no choice "{1}"',
  notHours: '{0} takes hours (e.g. 7.5 or 7:30), not "{1}"',
  notNumber: '{0} takes a number, not "{1}"',
  notDate: '{0} takes a date yyyy-MM-dd or "today", not "{1}"',
  todayRange: '"{0}" is too far from today: at most {1} days before or after',
  valueTooLong: 'the value of {0} is too long ({1} characters; at most {2})',
  rangeField: '{0} is not a number or date field: a range cannot apply',
  rangeBound: 'a range of {0} needs a lower or an upper bound',
  tooDeep: 'the filter nests groups too deeply (at most {0} levels)',
  quoteOpen: 'the quote opened at column {0} is not closed',
  expectedCondition: 'expected a field name or a keyword (mine, overdue, notstarted), not "{0}"',
  unknownIs: 'unknown "{0}": use is:mine, is:overdue or is:notstarted',
  notCondition: '"{0}" is not a condition: write field:value (e.g. status:"進行中"), field<value, or a keyword (mine, overdue, notstarted)',
  valueMissing: 'a value is missing after "{0}"',
  unexpectedAfter: 'unexpected "{0}" after the value of {1}: put a space between conditions, and quotes around a value with spaces or symbols',
  rangeList: 'a range takes one value, not a list',
  parenOpen: 'the parenthesis opened here is not closed',
  parenClose: 'this ")" closes no parenthesis',
  emptyGroup: 'the parentheses hold no condition',
  orOperand: '{0} needs a condition on each side',
  notOperand: '{0} needs a condition after it',
} as const;
export type FilterMessageCode = keyof typeof FILTER_MESSAGES;

/** A message of FILTER_MESSAGES with its parameters filled in. */
export function filterMessage(code: FilterMessageCode, params: readonly (string | number)[]): string {
  return FILTER_MESSAGES[code].replace(/\{(\d)\}/g, (_m, i: string) => String(params[Number(i)] ?? ''));
}
