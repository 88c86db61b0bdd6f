/** Form fields of the generator pages: a label, the control, and the message of the service. */
import { useEffect, type ReactNode } from 'react'
import type { GeneratorError } from './giffer-client.js'

const messageId = (id: string) => `${id}-message`

/** What a control needs to be tied to its label and message. */
export function controlProps(id: string, message: string | null | undefined) {
  return { id, 'aria-invalid': message ? true : undefined, 'aria-describedby': message ? messageId(id) : undefined }
}

export function Field({ id, label, message, className = 'field', children }: { id: string; label: string; message?: string | null; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children}
      {message && (
        <p className="field-message" id={messageId(id)} role="alert">
          {message}
        </p>
      )}
    </div>
  )
}

/** A colour picker with its value written beside it. */
export function ColorField({ id, name, label, value, onChange, message }: { id: string; name: string; label: string; value: string; onChange: (value: string) => void; message?: string | null }) {
  return (
    <Field id={id} label={label} message={message} className="field field-color">
      <span className="color-control">
        <input type="color" name={name} value={value} onChange={(event) => onChange(event.target.value)} {...controlProps(id, message)} />
        <span aria-hidden="true">{value}</span>
      </span>
    </Field>
  )
}

/** Moves the focus to the input of the field the service named, where the visitor fixes it and its message is read. */
export function useFocusOnError(error: GeneratorError | null, inputs: Readonly<Record<string, string>>): void {
  useEffect(() => {
    const id = error?.field && inputs[error.field]
    if (id) document.getElementById(id)?.focus()
  }, [error, inputs])
}
