/**
 * The live 'Команда:' preview (spec.md section 2, /barrier-settings): each `{key}` of the template is replaced
 * by the entered value; a placeholder without a value stays as written (e.g. `{pwd}`, filled by the server).
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, key: string) => {
    const value = values[key];
    return value ? value : placeholder;
  });
}
