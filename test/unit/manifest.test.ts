import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REQUEST_DOCUMENT_SUFFIX } from '../../src/schema/document';

// The manifest's when-clauses agree with the code about which files are request documents.
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));

function whenClauses(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => whenClauses(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'when' && typeof v === 'string') out.push(v);
      else whenClauses(v, out);
    }
  }
  return out;
}

describe('manifest: request document when-clauses', () => {
  const clauses = whenClauses(manifest.contributes).filter((w) => w.includes('workitems'));
  const regexes = clauses.map((w) => {
    const m = /resourceFilename =~ \/(.+)\/([a-z]*)/.exec(w);
    assert.ok(m, `unexpected clause: ${w}`);
    return new RegExp(m[1]!, m[2]);
  });

  it('the send, preview and key binding entries exist', () => {
    assert.ok(regexes.length >= 5, `only ${regexes.length} clauses name request documents`);
  });

  it('match request documents whatever the case of the suffix, as the editor does', () => {
    for (const name of [`plan${REQUEST_DOCUMENT_SUFFIX}`, 'Plan.WorkItems.json', 'SPRINT.WORKITEMS.JSON']) {
      for (const r of regexes) assert.ok(r.test(name), `${r} does not match ${name}`);
    }
  });

  it('do not match other JSON files', () => {
    for (const name of ['package.json', 'workitems.json', 'a.workitems.json.bak']) {
      for (const r of regexes) assert.ok(!r.test(name), `${r} matches ${name}`);
    }
  });
});

describe('manifest: walkthrough steps tick whichever way their command was run', () => {
  const steps = manifest.contributes.walkthroughs[0].steps as { id: string; completionEvents: string[] }[];
  const src = (f: string) => fs.readFileSync(path.resolve(__dirname, '..', '..', 'src', f), 'utf8');
  // A context key the extension sets when the thing happened, whatever ran it (CodeLens, menu, keybinding,
  // another command, the settings), besides the step's own command.
  const expected: Record<string, { key: string; setIn: [string, RegExp] }> = {
    connect: { key: 'workItemStudio.connected', setIn: ['common/contextKeys.ts', /connected: 'workItemStudio\.connected'/] },
    write: { key: 'workItemStudio.requestDocumentActive', setIn: ['editors/index.ts', /setContext', REQUEST_DOCUMENT_ACTIVE/] },
    preview: { key: 'workItemStudio.previewed', setIn: ['changes/send.ts', /setContext\(ContextKeys\.previewed, true\)/] },
    send: { key: 'workItemStudio.sent', setIn: ['changes/jobs/running.ts', /setContext\(ContextKeys\.sent, true\)/] },
  };
  for (const [id, e] of Object.entries(expected)) {
    it(`"${id}" also completes on the context key ${e.key}, which the extension sets`, () => {
      const step = steps.find((s) => s.id === id)!;
      assert.ok(step.completionEvents.includes(`onContext:${e.key}`), step.completionEvents.join(', '));
      assert.match(src(e.setIn[0]), e.setIn[1]);
    });
  }
  it('"connect" also completes on Sign In, "write" on Assign to Work Items…', () => {
    assert.ok(steps.find((s) => s.id === 'connect')!.completionEvents.includes('onCommand:workItemStudio.signIn'));
    assert.ok(steps.find((s) => s.id === 'write')!.completionEvents.includes('onCommand:workItemStudio.assignToWorkItems'));
  });
});
