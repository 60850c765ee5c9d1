// Notices for the user that belong to no single command (e.g. a config file moved aside): kept,
// oldest first, until dismissed, and announced as they are posted.
import { randomUUID } from 'node:crypto';
import type { AppNotice } from '../../shared/ipc';

export class NoticeBoard {
  private readonly notices: AppNotice[] = [];

  constructor(private readonly posted: (notice: AppNotice) => void) {}

  post(level: AppNotice['level'], message: string): void {
    const notice: AppNotice = { id: randomUUID(), level, message, at: Date.now() };
    this.notices.push(notice);
    this.posted(notice);
  }

  list(): AppNotice[] {
    return [...this.notices];
  }

  dismiss(id: string): void {
    const index = this.notices.findIndex((n) => n.id === id);
    if (index >= 0) this.notices.splice(index, 1);
  }
}
