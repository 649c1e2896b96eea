export declare const GOOD_DOCUMENT: { description: string; workItemIds: string[]; update: Record<string, unknown> };
export declare const BAD_DOCUMENT: Record<string, unknown>;
export declare function createWorkspace(options?: {
  dir?: string;
  settings?: Record<string, unknown>;
  files?: Record<string, unknown>;
}): string;
