// The live list from either engine's `ps --format '{{json .}}'`: podman prints one JSON array (Names
// an array, Created in seconds), docker one object per line (Names a string, CreatedAt a date);
// names Tether could not store are left out, and the newest come first.
import { describe, expect, it } from 'vitest';
import { parseContainerList } from '../../../../electron/client/transports/container/container-engine';

describe('parseContainerList', () => {
  it("reads podman's array", () => {
    const podman = JSON.stringify(
      [
        {
          Id: 'aa',
          Names: ['old'],
          Image: 'localhost/x:1',
          State: 'exited',
          Status: 'Exited (0) 2 hours ago',
          Created: 1_700_000_000,
        },
        {
          Id: 'bb',
          Names: ['web'],
          Image: 'nginx',
          State: 'running',
          Status: 'Up 5 minutes',
          Created: 1_700_000_600,
        },
      ],
      null,
      2,
    );
    expect(parseContainerList(podman)).toEqual([
      {
        name: 'web',
        id: 'bb',
        image: 'nginx',
        status: 'Up 5 minutes',
        running: true,
        createdAt: 1_700_000_600_000,
      },
      {
        name: 'old',
        id: 'aa',
        image: 'localhost/x:1',
        status: 'Exited (0) 2 hours ago',
        running: false,
        createdAt: 1_700_000_000_000,
      },
    ]);
  });

  it("reads docker's lines, and leaves out names no setting can hold", () => {
    const docker = [
      JSON.stringify({
        ID: 'cc',
        Names: 'db',
        Image: 'postgres:16',
        Status: 'Up 3 days',
        State: 'running',
        CreatedAt: '2024-05-01 10:00:00 +0000 UTC',
      }),
      JSON.stringify({ ID: 'dd', Names: '-evil', Image: 'x', Status: 'Up', State: 'running' }),
    ].join('\n');
    expect(parseContainerList(docker)).toEqual([
      {
        name: 'db',
        id: 'cc',
        image: 'postgres:16',
        status: 'Up 3 days',
        running: true,
        createdAt: Date.parse('2024-05-01 10:00:00 +0000'),
      },
    ]);
    expect(parseContainerList('')).toEqual([]);
    expect(() => parseContainerList('not json')).toThrow(/cannot read/);
  });
});
