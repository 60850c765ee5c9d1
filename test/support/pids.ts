// Whether a process the test started is still there, by pid (signal 0 checks without sending).

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
