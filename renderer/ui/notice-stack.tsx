// The AppService's notices (e.g. "tokens are not encrypted here"), stacked in a corner of the
// window until dismissed; errors and warnings are announced to screen readers at once.
import { dismissNotice } from './notice-actions';
import { useNotices } from './notices-store';

export function NoticeStack() {
  const notices = useNotices((s) => s.list);
  if (notices.length === 0) return null;
  return (
    <div className="notice-stack">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`notice notice-${notice.level}`}
          role={notice.level === 'info' ? 'status' : 'alert'}
        >
          <span>{notice.message}</span>
          <button onClick={() => dismissNotice(notice.id)} aria-label="Dismiss notice">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
