// The pure parts of tetherStreams: which targets are loopback (and what is dialled for them), and
// the credit window of one StreamChannel against recording socket and wire sides.
import { describe, expect, it } from 'vitest';
import { loopbackAddresses, StreamChannel } from '../../../shared/protocol';

describe('loopbackAddresses', () => {
  it('dials localhost as 127.0.0.1 then ::1, and loopback literals as they are', () => {
    expect(loopbackAddresses('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(loopbackAddresses('LOCALHOST')).toEqual(['127.0.0.1', '::1']);
    expect(loopbackAddresses('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(loopbackAddresses('127.255.3.4')).toEqual(['127.255.3.4']);
    expect(loopbackAddresses('[::1]')).toEqual(['::1']);
    expect(loopbackAddresses('::1')).toEqual(['::1']);
  });

  it('refuses everything else, names and odd spellings included', () => {
    for (const host of [
      '10.0.0.1',
      '0.0.0.0',
      '::',
      '::ffff:10.0.0.1',
      '127.0.0.256',
      '127.0.0.01',
      '127.1',
    ]) {
      expect(loopbackAddresses(host), host).toBeNull();
    }
    for (const host of ['example.com', 'localhost.example.com', '127.0.0.1.nip.io', '']) {
      expect(loopbackAddresses(host), host).toBeNull();
    }
  });
});

function channel(receiveWindow: number) {
  const sent: number[] = [];
  const credits: number[] = [];
  const events: string[] = [];
  const writes: Array<() => void> = [];
  const ch = new StreamChannel(
    {
      write: (_bytes, written) => writes.push(written),
      end: () => events.push('socket end'),
      pause: () => events.push('pause'),
      resume: () => events.push('resume'),
      reset: () => events.push('socket reset'),
    },
    {
      data: (bytes) => sent.push(bytes.length),
      credit: (bytes) => credits.push(bytes),
      end: () => events.push('wire end'),
      reset: (message) => events.push(`wire reset: ${message}`),
    },
    receiveWindow,
    () => events.push('finished'),
  );
  return { ch, sent, credits, events, writes };
}

describe('StreamChannel', () => {
  it('sends no more than the credit, holds the rest with the socket paused, and ends after it', () => {
    const { ch, sent, events } = channel(1024);
    ch.credit(100);
    ch.fromSocket(new Uint8Array(250));
    ch.socketEnded();
    expect(sent).toEqual([100]);
    expect(events.at(-1)).toBe('pause');
    expect(events).not.toContain('wire end');
    ch.credit(100);
    ch.credit(100);
    expect(sent).toEqual([100, 100, 50]);
    expect(events.filter((e) => e === 'wire end')).toHaveLength(1);
  });

  it('credits back only what the socket wrote, a quarter window at a time', () => {
    const { ch, credits, writes } = channel(1000);
    for (let i = 0; i < 4; i++) ch.peerData(new Uint8Array(100));
    expect(credits).toEqual([]);
    writes[0]!();
    writes[1]!();
    expect(credits).toEqual([]);
    writes[2]!();
    expect(credits).toEqual([300]);
  });

  it('copies what it must hold of a reused read buffer, and sends what the credit allows as it is', () => {
    const sentBytes: Uint8Array[] = [];
    const ch = new StreamChannel(
      {
        write: () => undefined,
        end: () => undefined,
        pause: () => undefined,
        resume: () => undefined,
        reset: () => undefined,
      },
      {
        data: (bytes) => sentBytes.push(bytes.slice()),
        credit: () => undefined,
        end: () => undefined,
        reset: () => undefined,
      },
      1000,
      () => undefined,
    );
    const readBuffer = new Uint8Array(8).fill(7);
    ch.credit(3);
    ch.fromSocket(readBuffer, true);
    // The next read lands in the same buffer before the rest could be sent.
    readBuffer.fill(9);
    ch.credit(100);
    expect(sentBytes.map((b) => [...b])).toEqual([
      [7, 7, 7],
      [7, 7, 7, 7, 7],
    ]);
  });

  it('resets the stream when the peer overruns the window, and only then', () => {
    const { ch, events } = channel(1000);
    ch.peerData(new Uint8Array(1000));
    expect(events).not.toContain('finished');
    ch.peerData(new Uint8Array(1));
    expect(events).toContain('wire reset: the peer sent 1001 bytes on a 1000-byte window');
    expect(events).toContain('socket reset');
  });

  it('is clean when both sides ended before the socket closed, a reset otherwise', () => {
    const clean = channel(1000);
    clean.ch.credit(10);
    clean.ch.socketEnded();
    clean.ch.peerEnd();
    clean.ch.socketClosed();
    expect(clean.events.filter((e) => e.startsWith('wire reset'))).toEqual([]);
    const cut = channel(1000);
    cut.ch.socketClosed();
    expect(cut.events).toContain('wire reset: the connection closed before both sides ended');
  });
});
