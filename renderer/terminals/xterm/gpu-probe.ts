// Decides once per page whether xterm's WebGL renderer is worth using: only on a hardware WebGL
// context. On a software rasterizer (SwiftShader, llvmpipe, …) every frame is drawn on the CPU and
// read back, which measured several times slower than xterm's DOM renderer.

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software|basic render/i;

let verdict: boolean | null = null;

/** True when a WebGL2 context is available and backed by a GPU. */
export function hardwareWebglAvailable(): boolean {
  verdict ??= probe();
  return verdict;
}

/** True for the name of a WebGL implementation that rasterizes on the CPU. */
export function isSoftwareRenderer(name: string): boolean {
  return SOFTWARE_RENDERERS.test(name);
}

function probe(): boolean {
  let gl: WebGL2RenderingContext | null = null;
  try {
    gl = document.createElement('canvas').getContext('webgl2', { failIfMajorPerformanceCaveat: true });
  } catch {
    return false;
  }
  if (!gl) return false;
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    return !isSoftwareRenderer(renderer);
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
