/** `1 query`, `3 queries`: the count and the noun in the form the count needs. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
