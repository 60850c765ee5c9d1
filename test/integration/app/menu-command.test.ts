// The desktop app's native menu runs renderer commands: the AppService hands the chosen command's
// id to every attached renderer as an app.menuCommand event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './app-harness';

describe('menu commands', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ autoConnect: false });
  });
  afterEach(async () => {
    await h?.close();
  });

  it('reach the renderers as app.menuCommand events', () => {
    h.service.menuCommand('commandPalette');
    expect(h.eventsNamed('app.menuCommand')).toEqual([{ id: 'commandPalette' }]);
  });
});
