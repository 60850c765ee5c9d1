// The shell integration's scripts, imported as their text (scripts/shell-scripts-plugin.mjs).
declare module '*.bash' {
  const text: string;
  export default text;
}
declare module '*.zsh' {
  const text: string;
  export default text;
}
declare module '*.fish' {
  const text: string;
  export default text;
}
