/** Placeholder until the redactor lands: raw forms only. */
export type Redact = (text: string) => string

export function redactor(secrets: readonly string[]): Redact {
  const forms = secrets.filter((secret) => secret !== '')
  return (text) => forms.reduce((result, form) => result.split(form).join('***'), text)
}
