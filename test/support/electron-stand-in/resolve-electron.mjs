// Module-resolution hook for the Electron host contract test: every `import 'electron'` resolves to
// the recording stand-in (its URL comes in through `initialize`); everything else resolves as usual.
let standInUrl = null;

export function initialize(data) {
  standInUrl = data.standInUrl;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: standInUrl, shortCircuit: true };
  return nextResolve(specifier, context);
}
