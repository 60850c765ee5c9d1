// The macOS path of ports/listening: lsof's field output (-F pcn) and ps's parent table, parsed from
// samples in the format lsof and ps write (p/c per process, then f/n per open file). Not checked
// against a real Mac here: no macOS host in this project's CI.
import { describe, expect, it } from 'vitest';
import { parseLsofListeners, parsePsParents } from '../../../../electron/server/ports/lsof-output';

const LSOF = [
  'p412',
  'cControlCenter',
  'f9',
  'n*:7000',
  'f10',
  'n*:7000',
  'f11',
  'n*:5000',
  'p1834',
  'cnode',
  'f23',
  'n[::1]:5173',
  'p2210',
  'cpostgres',
  'f7',
  'n127.0.0.1:5432',
  'f8',
  'n[::1]:5432',
  'p3301',
  'cMicrosoft Teams Helper',
  'f40',
  'n192.168.1.12:49152',
  'f41',
  'n[fe80:4::1]:631',
  'p3302',
  'cvite',
  'f22',
  'n[::]:5174',
  'f23',
  'n127.0.0.1:51000->127.0.0.1:5432',
  '',
].join('\n');

describe('lsof -F pcn output', () => {
  it('lists one entry per port reachable from loopback, with the first process lsof names for it', () => {
    expect(parseLsofListeners(LSOF)).toEqual([
      { port: 5000, pid: 412, name: 'ControlCenter' },
      { port: 5173, pid: 1834, name: 'node' },
      { port: 5174, pid: 3302, name: 'vite' },
      { port: 5432, pid: 2210, name: 'postgres' },
      { port: 7000, pid: 412, name: 'ControlCenter' },
    ]);
  });

  it('skips what it cannot read, and CRLF line ends', () => {
    expect(parseLsofListeners('pabc\ncx\nn*:1\np7\r\ncsshd\r\nn*:22\r\nnnot-an-address\n')).toEqual([
      { port: 22, pid: 7, name: 'sshd' },
    ]);
    expect(parseLsofListeners('')).toEqual([]);
  });

  it('reads ps -axo pid=,ppid=', () => {
    expect([...parsePsParents('    1     0\n  412     1\n 1834   901\nnoise\n')]).toEqual([
      [1, 0],
      [412, 1],
      [1834, 901],
    ]);
  });
});
