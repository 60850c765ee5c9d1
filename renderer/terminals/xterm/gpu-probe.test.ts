import { describe, expect, it } from 'vitest';
import { hardwareWebglAvailable, isSoftwareRenderer } from './gpu-probe';

describe('gpu-probe', () => {
  it('recognises CPU rasterizers by their WebGL renderer name', () => {
    expect(
      isSoftwareRenderer(
        'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      ),
    ).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('Microsoft Basic Render Driver')).toBe(true);
    expect(
      isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)'),
    ).toBe(false);
    expect(isSoftwareRenderer('Apple M2')).toBe(false);
  });

  it('reports no hardware WebGL where no WebGL context can be made', () => {
    expect(hardwareWebglAvailable()).toBe(false);
  });
});
