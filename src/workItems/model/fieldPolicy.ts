// Which `fields=` the Work Items view asks for, and what it does when a service
// refuses a name it does not know: the read is tried once more with the core
// official names (Id, Name, Code, ParentId, ItemTypeId), said once in the log, and
// every later read of the same service asks for the core names only. A service
// that ignores unknown names needs nothing: the rows show what came back.
// No vscode import.
import type { ServiceError } from '../../api/errors';
import type { ProjectTypes } from './types';
import { core } from '../../core/load';

export class TreeFieldPolicy {
  private refused = false;

  /** `say` receives one sentence (English, for the log) the first time a service refuses the fields. */
  constructor(private readonly say: (message: string) => void) {}

  /** True once the service refused the tree's fields (until `reset`). */
  get fallenBack(): boolean {
    return this.refused;
  }

  /** The fields to ask for a project's rows: its catalogue's choice (types), or TREE_FIELDS; the core names after a refusal. */
  fieldsFor(types?: ProjectTypes): readonly string[] {
    if (this.refused) return core().CORE_TREE_FIELDS;
    return types ? types.treeFields() : core().TREE_FIELDS;
  }

  /** Runs a read with `fields`, falling back to the core names once when the service refuses them. */
  read<T>(fields: readonly string[], read: (fields: readonly string[]) => Promise<T>): Promise<T> {
    return core().readWithFieldFallback(fields, core().CORE_TREE_FIELDS, read, (e, asked) => this.refuse(e, asked));
  }

  private refuse(e: ServiceError, asked: readonly string[]): void {
    if (this.refused) return;
    this.refused = true;
    this.say(
      `Work items: the service refused the read of fields ${asked.join(',')} (status ${e.status ?? '?'}); ` +
        `reading only ${core().CORE_TREE_FIELDS.join(',')} from now on for this service (no periods, progress, times, leader or status in the tree).`,
    );
  }

  /** Forgets a refusal (another service, or a refresh of everything). */
  reset(): void {
    this.refused = false;
  }
}
