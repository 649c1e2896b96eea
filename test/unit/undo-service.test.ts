// An undo document goes to the service of the job it undoes or nowhere: the request
// document's optional "service" member (shape, checks, JSON Schema) and the comparison
// Send makes between it and the service in use (src/bulk/undo.ts). No vscode.
import * as assert from 'node:assert/strict';
import { createRequestDocument, validateRequestDocument } from '../../src/schema/document';
import { buildRequestDocumentJsonSchema } from '../../src/schema/generate-json-schema';
import { otherServiceOf, sameServiceUrl } from '../../src/bulk/undo';

const base = { workItemIds: ['3001'], update: { fields: { Name: 'x' } } };

describe('undo document: its service', () => {
  it('a document with "service" is valid and keeps it (trimmed)', () => {
    const r = validateRequestDocument({ ...base, service: ' http://127.0.0.1:4567/api ' });
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    assert.deepEqual(r.issues, []);
    assert.equal(r.document?.service, 'http://127.0.0.1:4567/api');
  });

  it('a document without "service" has none (sent as today)', () => {
    const r = validateRequestDocument(base);
    assert.equal(r.ok, true);
    assert.equal(r.document?.service, undefined);
    assert.equal('service' in r.document!, false);
  });

  for (const bad of [42, 'pm.example.com', 'ftp://pm.example.com/api', 'https://pm.example.com/api?x=1', 'https://user:pw@pm.example.com/api', '']) {
    it(`"service": ${JSON.stringify(bad)} is an error on "service" (never sent)`, () => {
      const r = validateRequestDocument({ ...base, service: bad });
      assert.equal(r.ok, false);
      const issue = r.issues.find((i) => i.code === 'WRONG_TYPE' && JSON.stringify(i.path) === '["service"]');
      assert.ok(issue, JSON.stringify(r.issues));
      assert.equal(issue.severity, 'error');
      assert.match(issue.message, /"service" must be an http\(s\) base URL/);
      assert.equal(r.document, undefined);
    });
  }

  it('"Service" in another capitalisation is an unknown member with a rename fix', () => {
    const r = validateRequestDocument({ ...base, Service: 'http://127.0.0.1:4567/api' });
    const issue = r.issues.find((i) => i.code === 'DOCUMENT_UNKNOWN_MEMBER');
    assert.ok(issue);
    assert.deepEqual(issue.fix, { kind: 'rename-member', to: 'service' });
  });

  it('the JSON Schema allows and describes "service"', () => {
    const schema = buildRequestDocumentJsonSchema() as { properties: Record<string, { description?: string }>; additionalProperties?: unknown };
    assert.ok(schema.properties.service, 'service is a property of the schema');
    assert.match(schema.properties.service.description ?? '', /only service this document may be sent to/);
  });

  it('createRequestDocument writes "service" after the description, before the IDs', () => {
    const d = createRequestDocument(['3001'], { fields: { Name: 'x' } }, { description: 'Undo', service: 'http://127.0.0.1:4567/api' });
    assert.deepEqual(Object.keys(d), ['description', 'service', 'workItemIds', 'update']);
    assert.equal(validateRequestDocument(JSON.parse(JSON.stringify(d))).ok, true);
  });
});

describe('undo document: same service or not', () => {
  it('the same URL is the same service', () => {
    assert.equal(sameServiceUrl('https://pm.example.com/TimeTrackerNX/api', 'https://pm.example.com/TimeTrackerNX/api'), true);
  });
  it('a trailing slash, the default port and the host case do not make another service', () => {
    assert.equal(sameServiceUrl('https://pm.example.com/api/', 'https://pm.example.com/api'), true);
    assert.equal(sameServiceUrl('https://PM.example.com:443/api', 'https://pm.example.com/api//'), true);
    assert.equal(sameServiceUrl('http://127.0.0.1:4567', 'http://127.0.0.1:4567/'), true);
  });
  it('another origin is another service (scheme, host, port)', () => {
    assert.equal(sameServiceUrl('https://pm.example.com/api', 'http://pm.example.com/api'), false);
    assert.equal(sameServiceUrl('https://pm.example.com/api', 'https://other.example.com/api'), false);
    assert.equal(sameServiceUrl('http://127.0.0.1:4567/api', 'http://127.0.0.1:4568/api'), false);
  });
  it('another base path is another service', () => {
    assert.equal(sameServiceUrl('https://pm.example.com/TimeTrackerNX/api', 'https://pm.example.com/api'), false);
    assert.equal(sameServiceUrl('https://pm.example.com/api', 'https://pm.example.com/API'), false);
    assert.equal(sameServiceUrl('https://pm.example.com', 'https://pm.example.com/api'), false);
  });
  it('what is not an http(s) URL is never the same service', () => {
    assert.equal(sameServiceUrl('not a url', 'not a url'), false);
    assert.equal(sameServiceUrl('ftp://pm.example.com/api', 'ftp://pm.example.com/api'), false);
  });
  it('otherServiceOf: none for a document without service or for the service in use; its service otherwise', () => {
    assert.equal(otherServiceOf({}, 'http://127.0.0.1:4567'), undefined);
    assert.equal(otherServiceOf({ service: 'http://127.0.0.1:4567/' }, 'http://127.0.0.1:4567'), undefined);
    assert.equal(otherServiceOf({ service: 'http://127.0.0.1:4567' }, 'https://pm.example.com/api'), 'http://127.0.0.1:4567');
  });
});
