// The update jobs of the editor (RequestJobs): running (./running.ts), continuing an
// existing job (./recovery.ts), picking one (./picking.ts), and the questions asked,
// injected through `JobPrompts` (./prompts.ts).
import type { JobResult } from '../../bulk';
import { JobRunner } from './running';
import { withPrompts, type JobPrompts } from './prompts';
import { resendUnknownRequests, resume, retryFailedRequests, sendWithoutMissing } from './recovery';

export type { JobSourceInfo, JobValueHooks } from './values';
export type { JobPrompts } from './prompts';
export { refusedUpdatesText, retryRefusedUpdates } from './running';

export class RequestJobs extends JobRunner {
  /** Resumes a job: sends what was never sent, and looks for its adds of unknown outcome below their parents first. */
  resume(jobId?: string): Promise<JobResult | undefined> {
    return resume(this, jobId);
  }

  /**
   * Re-sends the failed requests. When some of them can only fail the same way again (the service
   * refused them for what they say, e.g. work items that do not exist), asks first and says why.
   */
  retryFailed(jobId?: string): Promise<JobResult | undefined> {
    return retryFailedRequests(this, jobId);
  }

  /** "Remove Missing IDs and Send the Rest": a new job with the same update for the other IDs. */
  sendWithoutMissing(jobId?: string): Promise<JobResult | undefined> {
    return sendWithoutMissing(this, jobId);
  }

  /** Re-sends requests of unknown outcome, only after an explicit confirmation. */
  resendUnknown(jobId?: string): Promise<JobResult | undefined> {
    return resendUnknownRequests(this, jobId);
  }

  /** Answers the questions with `answers` where given (tests, automation); undefined: the modal dialogs again. */
  setPrompts(answers: Partial<JobPrompts> | undefined): void {
    this.prompts = withPrompts(answers);
  }
}
