// Placeholder registration, replaced by the owning layer's real command.
import type { Command } from 'commander';

export function registerWebCommand(_program: Command): void {}
