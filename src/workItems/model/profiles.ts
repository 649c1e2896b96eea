// The projects' profiles the Work Items view has read (official help P2:
// `GET /project/projects/{id}/profile?includes=ItemTypes,FieldTypes,StatusTypes`),
// one read per project and service, as ProjectTypes. A profile that cannot be read
// leaves the project to the answers' shape, said once in the log. No vscode import.
import type { ProjectProfile } from '../../schema/catalogue';
import { ProjectTypes } from './types';

/** What a profile read is: the project's profile, or undefined when the client cannot read profiles. */
export type ProfileRead = (projectId: string, signal?: AbortSignal) => Promise<ProjectProfile | undefined>;

export const PROFILE_INCLUDES: readonly string[] = ['ItemTypes', 'FieldTypes', 'StatusTypes'];

export class ProjectTypesCache {
  private readonly byProject = new Map<string, ProjectTypes>();
  private readonly pending = new Map<string, Promise<ProjectTypes>>();
  /** Projects whose profile was read or failed (no second read until `clear`). */
  private readonly tried = new Set<string>();
  private said = false;

  /** `describe` words an error for the log; `say` receives one English sentence. */
  constructor(
    private readonly read: ProfileRead,
    private readonly say: (message: string) => void,
    private readonly describe: (e: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
  ) {}

  /** What is known of the project now (no request): its profile's types, or what the answers showed so far. */
  known(projectId: string | undefined): ProjectTypes {
    const key = projectId ?? '';
    let t = this.byProject.get(key);
    if (!t) {
      t = new ProjectTypes();
      this.byProject.set(key, t);
    }
    return t;
  }

  /** The project's types, reading its profile once (concurrent callers share the read). Rejects only when `signal` aborted. */
  load(projectId: string | undefined, signal?: AbortSignal): Promise<ProjectTypes> {
    if (projectId === undefined || this.tried.has(projectId)) return Promise.resolve(this.known(projectId));
    let p = this.pending.get(projectId);
    if (!p) {
      p = this.readOnce(projectId, signal);
      this.pending.set(projectId, p);
      void p.then(
        () => this.pending.delete(projectId),
        () => this.pending.delete(projectId),
      );
    }
    return p;
  }

  private async readOnce(projectId: string, signal?: AbortSignal): Promise<ProjectTypes> {
    let profile: ProjectProfile | undefined;
    try {
      profile = await this.read(projectId, signal);
    } catch (e) {
      if (signal?.aborted) throw e;
      this.tried.add(projectId);
      if (!this.said) {
        this.said = true;
        this.say(
          `Work items: the profile of project ${projectId} could not be read (${this.describe(e)}); ` +
            `folders are decided from the answers' shape and item types and statuses are shown by ID where a profile is missing.`,
        );
      }
      return this.known(projectId);
    }
    this.tried.add(projectId);
    if (!profile) {
      if (!this.said) {
        this.said = true;
        this.say("Work items: project profiles are not read by this client; folders are decided from the answers' shape.");
      }
      return this.known(projectId);
    }
    const t = new ProjectTypes(profile);
    this.byProject.set(projectId, t);
    return t;
  }

  /** Forgets every profile (another service, or a refresh of everything). */
  clear(): void {
    this.byProject.clear();
    this.pending.clear();
    this.tried.clear();
    this.said = false;
  }
}
