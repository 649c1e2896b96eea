// Service profiles (src/common/profiles.ts): what the workItemStudio.services setting gives, how
// the serviceUrl setting joins them, which one is in use, and what Add Service Profile writes.
import * as assert from 'node:assert/strict';
import { activeProfile, profileNameProblem, readProfiles, withProfile } from '../../src/common/profiles';

describe('service profiles', () => {
  const services = [
    { name: '本番', url: 'https://pm.example.com/TimeTrackerNX/api/' },
    { name: '検証', url: 'https://pm-test.example.com/TimeTrackerNX/api', authMethod: 'basic' },
  ];

  it('reads named profiles in order, normalized as the connect box does, with their sign-in method', () => {
    const { list, problems } = readProfiles(services, '');
    assert.deepEqual(list, [
      { name: '本番', baseUrl: 'https://pm.example.com/TimeTrackerNX/api', origin: 'https://pm.example.com' },
      { name: '検証', baseUrl: 'https://pm-test.example.com/TimeTrackerNX/api', origin: 'https://pm-test.example.com', authMethod: 'basic' },
    ]);
    assert.deepEqual(problems, []);
  });

  it('leaves out and reports entries without a name, with a URL the connect box refuses, or with a name already used', () => {
    const { list, problems } = readProfiles(
      [42, { url: 'https://a.example/api' }, { name: 'x', url: 'ftp://a.example' }, { name: 'y', url: 'https://u:p@a.example/api' }, { name: '本番', url: 'https://a.example/api' }, { name: '本番', url: 'https://b.example/api' }],
      '',
    );
    assert.deepEqual(list.map((p) => p.name), ['本番']);
    assert.deepEqual(problems, [
      { index: 0, problem: 'not-an-object' },
      { index: 1, problem: 'no-name' },
      { index: 2, problem: 'bad-url' },
      { index: 3, problem: 'bad-url' },
      { index: 5, problem: 'duplicate-name' },
    ]);
  });

  it('adds the serviceUrl setting as one more profile named by its host, unless a named profile has its URL', () => {
    assert.deepEqual(readProfiles(services, 'https://other.example:8443/api').list.at(-1), {
      name: 'other.example:8443',
      baseUrl: 'https://other.example:8443/api',
      origin: 'https://other.example:8443',
      fromServiceUrl: true,
    });
    assert.equal(readProfiles(services, 'https://pm.example.com/TimeTrackerNX/api').list.length, 2);
    // Without named profiles the setting alone is the one profile, as before profiles existed.
    assert.deepEqual(readProfiles(undefined, 'http://127.0.0.1:43349/api').list.map((p) => p.name), ['127.0.0.1:43349']);
  });

  it('names the serviceUrl profile by its URL when a named profile already has its host as a name', () => {
    const list = readProfiles([{ name: 'other.example', url: 'https://x.example/api' }], 'https://other.example/api').list;
    assert.deepEqual(list.map((p) => p.name), ['other.example', 'https://other.example/api']);
  });

  it('uses the profile chosen in the workspace while it exists, else the serviceUrl one, else the first', () => {
    const { list } = readProfiles(services, 'https://other.example/api');
    assert.equal(activeProfile(list, '検証')?.name, '検証');
    assert.equal(activeProfile(list, 'removed since')?.name, 'other.example');
    assert.equal(activeProfile(readProfiles(services, '').list, undefined)?.name, '本番');
    assert.equal(activeProfile([], '本番'), undefined);
  });

  it('adds a profile to the setting keeping the entries as written, and refuses an empty or taken name', () => {
    const written = [{ name: '本番', url: 'https://pm.example.com/api', note: 'kept' }];
    assert.deepEqual(withProfile(written, '検証', 'https://pm-test.example.com/api'), [...written, { name: '検証', url: 'https://pm-test.example.com/api' }]);
    assert.deepEqual(withProfile(undefined, 'a', 'https://a.example/api', 'apiKey'), [{ name: 'a', url: 'https://a.example/api', authMethod: 'apiKey' }]);
    const { list } = readProfiles(services, 'https://other.example/api');
    assert.equal(profileNameProblem('  ', list), 'empty');
    assert.equal(profileNameProblem(' 本番 ', list), 'taken');
    // The serviceUrl profile's name is its host: naming a profile like it is allowed.
    assert.equal(profileNameProblem('other.example', list), undefined);
  });
});
