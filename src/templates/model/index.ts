// The model of "Copy Folder as Template": the add built from a read subtree, its dates and its problems. No vscode import.
export { buildTemplate, earliestPlannedDate, templateLimits, type TemplateDestination, type TemplateOptions, type TemplateResult, type WorkItemTemplate } from './copy';
export { calendarDay, daysBetween, moveDate, readStartDate, type StartDateRead } from './dates';
export { copiedAssignments, copiedFields, isCopiedField, type LeftOut, type Parties } from './fields';
export { TEMPLATE_MESSAGES, type TemplateMessage, type TemplateProblem } from './problems';
export { destinationOf, folderChoices, FOLDER_FIELDS, type FolderChoice, type ReadItem } from './destinations';
