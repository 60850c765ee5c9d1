// One labelled control of a form grid: the label, the control, and the problem with it (if any)
// beneath, under an id the control can point at with aria-describedby or aria-errormessage.
import type { ReactNode } from 'react';

/** The id of the error line of the field whose control has `id`. */
export function fieldErrorId(id: string): string {
  return `${id}-error`;
}

export function Field({
  id,
  label,
  error,
  children,
}: {
  /** The control's id, which the label points at. */
  id: string;
  label: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span id={fieldErrorId(id)} className="field-error">
          {error}
        </span>
      )}
    </>
  );
}
