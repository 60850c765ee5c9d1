// The one way a view shows what just went wrong: a line announced to screen readers, or nothing.

export function ErrorLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}
