// A failed SSH connect step: a ClientError that also names the stage it failed in, so the UI can
// say "authenticating failed: Permission denied (publickey)" and offer Retry / Show log.
import type { ClientErrorCode } from '../../api';
import { ClientError } from '../../client-error';
import type { SshStage } from './ssh-hooks';

export class SshError extends ClientError {
  constructor(
    code: ClientErrorCode,
    readonly stage: SshStage,
    message: string,
  ) {
    super(code, message);
  }
}
