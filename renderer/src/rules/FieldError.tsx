/** A refusal beside its field; `id` is what the field's aria-describedby names. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span className="rules-error" id={id} data-testid="rules-field-error" data-field={id}>
      {message}
    </span>
  );
}

/** The props that tie a field to its refusal (none when it has none). */
export function describedBy(id: string, message: string | undefined) {
  return message ? { 'aria-invalid': true as const, 'aria-describedby': errorId(id) } : {};
}

export const errorId = (fieldId: string): string => `err-${fieldId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
