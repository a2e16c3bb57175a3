/** The scan field element, so any action can hand focus back to it. */
let field: HTMLInputElement | null = null;

export function registerScanField(el: HTMLInputElement | null): void {
  field = el;
}

export function scanField(): HTMLInputElement | null {
  return field;
}

export function focusScan(): void {
  field?.focus();
}
