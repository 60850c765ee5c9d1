// The toasts (background process ended, transfer done or failed, link failed), above the status bar.
import { X } from 'lucide-react';
import { useToasts } from './toasts-store';

export function ToastStack() {
  const toasts = useToasts((s) => s.list);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toast-stack" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.level}`}>
          <span>{t.message}</span>
          <button className="icon" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            <X size={13} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
