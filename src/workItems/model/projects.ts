// The project list of the Work Items view: filter, "hide finished" and paging.
// No vscode import.
import type { Project, ProjectsQuery } from '../../schema/reads';

export const PROJECT_FILTER_FIELDS = ['name', 'code', 'keyword'] as const;
export type ProjectFilterField = (typeof PROJECT_FILTER_FIELDS)[number];
export type ProjectFilter = Partial<Record<ProjectFilterField, string>>;

export interface ProjectListState {
  filter: ProjectFilter;
  /** Leave finished projects out (`isFinished=false`). */
  hideFinished: boolean;
}

/** The query of one page of `GET /project/projects`. */
export function projectsQuery(state: ProjectListState, page: { limit: number; offset: number }): ProjectsQuery {
  const q: ProjectsQuery = { ...page };
  if (state.filter.name) q.name = state.filter.name;
  if (state.filter.code) q.code = state.filter.code;
  if (state.filter.keyword) q.keyword = state.filter.keyword;
  if (state.hideFinished) q.isFinished = false;
  return q;
}

/** Projects as PagedList wants them (string IDs). */
export function projectKey(p: Project): string {
  return String(p.id);
}
