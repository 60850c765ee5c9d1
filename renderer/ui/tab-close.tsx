// The × inside a tab. It is for the mouse only (hidden from screen readers): the tab itself is the
// one control in the tablist, and Delete or a middle click close it too.
import { X } from 'lucide-react';

export function TabClose({
  className,
  title,
  onClose,
}: {
  className: string;
  title: string;
  onClose: () => void;
}) {
  return (
    <span
      className={className}
      aria-hidden="true"
      title={title}
      onClick={(e) => {
        // Not the tab's own click, which would activate the tab being closed.
        e.stopPropagation();
        onClose();
      }}
    >
      <X size={13} />
    </span>
  );
}
