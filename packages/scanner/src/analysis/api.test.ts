// Which database hosts written into an addon are servers on the Internet.
import { describe, expect, it } from 'vitest';
import { isRemoteHost } from './api.js';

describe('isRemoteHost', () => {
  it.each(['mirror.globalbans.net', 'db.synccloud.io', '203.0.113.7', ' Profiles.Sync-Cloud.NET '])(
    '%s is remote',
    (host) => expect(isRemoteHost(host)).toBe(true),
  );
  it.each([
    'localhost',
    '127.0.0.1',
    '0.0.0.0',
    '10.0.0.5',
    '192.168.1.20',
    '172.20.0.3',
    'mysql',
    '',
    'your.database.host',
    'db.example.com',
    'x.x.x.x',
    'db.lan',
  ])('%s is not', (host) => expect(isRemoteHost(host)).toBe(false));
});
