import { describe, expect, it } from 'vitest';
import {
  ENVIRONMENT_PALETTE,
  freeEnvironmentColour,
  LOCAL_ENVIRONMENT_COLOUR,
} from '../../../shared/environment-colours';

describe('a new environment colour', () => {
  it('is never a colour that looks like one already taken', () => {
    // #3b82f6 is the blue earlier versions offered second to Local's #2f81f7: the same at a glance.
    expect(freeEnvironmentColour([LOCAL_ENVIRONMENT_COLOUR])).toBe(ENVIRONMENT_PALETTE[1]);
    expect(freeEnvironmentColour(['#3b82f6'])).toBe(ENVIRONMENT_PALETTE[1]);
    expect(freeEnvironmentColour(['#2f81f7', '#12b57f'])).toBe(ENVIRONMENT_PALETTE[2]);
  });

  it('takes the palette in order, then cycles once every colour is used', () => {
    expect(freeEnvironmentColour([])).toBe(LOCAL_ENVIRONMENT_COLOUR);
    const all = [...ENVIRONMENT_PALETTE];
    expect(freeEnvironmentColour(all)).toBe(ENVIRONMENT_PALETTE[all.length % all.length]);
  });
});
