// /proc/net/tcp{,6} as Linux writes them: the listening sockets a loopback client can reach, with
// the inode /proc/<pid>/fd links name.
import { describe, expect, it } from 'vitest';
import { listeningSocketsOf } from '../../../shared/listening-sockets';

describe('listening sockets of /proc/net/tcp', () => {
  it('keeps listeners on loopback or any address, with their inodes', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 27765 1 00000000abb11a50 100 0 0 10 0',
      '   1: 00000000:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 28972 1 0000000065ddeb0 100 0 0 10 0',
      '   2: 0A00020F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 3 1',
      '   3: 0100007F:1435 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 4 1',
      '   4: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 x 1',
    ].join('\n');
    expect(listeningSocketsOf(tcp)).toEqual([
      { port: 5173, inode: '27765' },
      { port: 3000, inode: '28972' },
      { port: 8081, inode: '0' },
    ]);
  });
});
