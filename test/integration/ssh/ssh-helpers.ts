// Shared pieces of the SSH integration tests: hooks that record every stage, log line and prompt
// (answering from a script), and a client on the ssh transport to a rig host.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TransportSpec } from '../../../electron/client/api';
import {
  RemoteExecServerClient,
  type RemoteClientOptions,
} from '../../../electron/client/link/remote-client';
import type { SshHooks, SshPrompt, SshStageEvent } from '../../../electron/client/transports/ssh/ssh-hooks';
import type { SshdHost, SshTestRig } from '../../support/sshd';

export interface RecordingHooks extends SshHooks {
  stages: SshStageEvent[];
  logs: string[];
  prompts: SshPrompt[];
  /** Bytes the installing stage reported as the total, per install step (0 if none). */
  installTotals(): number[];
}

/** Hooks answering each prompt with `answer(prompt)` (null = cancel). */
export function recordingHooks(answer: (prompt: SshPrompt) => string | null = () => null): RecordingHooks {
  const stages: SshStageEvent[] = [];
  const logs: string[] = [];
  const prompts: SshPrompt[] = [];
  return {
    stages,
    logs,
    prompts,
    prompt: (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(answer(prompt));
    },
    onStage: (event) => stages.push(event),
    onLog: (line) => logs.push(line),
    installTotals: () => [
      ...new Set(stages.filter((s) => s.stage === 'installing').map((s) => s.bytesTotal ?? 0)),
    ],
  };
}

export function sshSpec(
  rig: SshTestRig,
  host: SshdHost,
  extra: Partial<TransportSpec & { kind: 'ssh' }> = {},
): TransportSpec {
  return { kind: 'ssh', destination: host.alias, sshOptions: rig.sshOptions, ...extra };
}

export function sshClient(
  rig: SshTestRig,
  host: SshdHost,
  hooks: SshHooks | undefined,
  options: Partial<RemoteClientOptions> & { spec?: Partial<TransportSpec & { kind: 'ssh' }> } = {},
): RemoteExecServerClient {
  const { spec, ...rest } = options;
  return new RemoteExecServerClient({ transport: sshSpec(rig, host, spec), ssh: hooks, ...rest });
}

/** Names under the host's ~/.tether/<sub>, or [] if there is none. */
export function installedOnHost(host: SshdHost, sub: 'server' | 'runtime'): string[] {
  const dir = path.join(host.home, '.tether', sub);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The SSH master of a client on `rig` to `host` (there is at most one): its pid and ControlPath. */
export function masterOf(rig: SshTestRig, host: SshdHost): { pid: number; controlPath: string } | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(path.join('/proc', entry, 'cmdline'), 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    // The rig's own config file tells our masters from those of other tests on this machine.
    if (!argv.includes('ControlMaster=yes') || !argv.includes(rig.configFile)) continue;
    if (!argv.includes(host.alias)) continue;
    const controlPath = argv.find((arg) => arg.startsWith('ControlPath='))?.slice('ControlPath='.length);
    if (controlPath) return { pid: Number(entry), controlPath };
  }
  return null;
}

/** Whether a master answers on `controlPath` (`ssh -O check`, as the bootstrap asks it). */
export function masterAnswers(rig: SshTestRig, host: SshdHost, controlPath: string): boolean {
  const run = spawnSync(
    'ssh',
    [...rig.sshOptions, '-o', `ControlPath=${controlPath}`, '-O', 'check', host.alias],
    {
      stdio: 'ignore',
      timeout: 10_000,
    },
  );
  return run.status === 0;
}
