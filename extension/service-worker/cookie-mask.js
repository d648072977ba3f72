// Cookie values kept out of an answer: whatever a script or step returned,
// every string in it has each cookie value of the profile replaced, as is,
// URL-encoded, and base64-encoded (standard and URL-safe alphabets, at each of
// the three alignments a value can have inside a longer encoded text).
//
// What it cannot catch, and docs/security.md says so: values shorter than
// MIN_VALUE_LENGTH (too common to mask: "1", "en", "true"), and a script that
// transforms a value any other way (hex, reversed, split, encrypted).

export const COOKIE_MASK = '[cookie value]';
const MIN_VALUE_LENGTH = 6;
// a base64 form shorter than this would match too much by chance
const MIN_ENCODED_LENGTH = 8;

// `answer` with every form of each of `values` in its strings replaced, except
// the strings whose path of keys `skip(path)` names (an image's base64 data).
export function maskCookieValues(answer, values, skip = () => false) {
  const forms = [...new Set(values.filter((value) => value.length >= MIN_VALUE_LENGTH).flatMap(formsOf))]
    .sort((a, b) => b.length - a.length);
  if (forms.length === 0) return answer;
  const mask = (text) => forms.reduce((masked, form) => masked.split(form).join(COOKIE_MASK), text);
  return walk(answer, mask, skip, []);
}

function formsOf(value) {
  const forms = [value, encodeURIComponent(value)];
  for (const offset of [0, 1, 2]) {
    const bytes = new TextEncoder().encode(value).slice(offset);
    const whole = bytes.length - (bytes.length % 3); // the bytes whose encoding no neighbour changes
    const encoded = btoa(String.fromCharCode(...bytes.slice(0, whole)));
    if (encoded.length >= MIN_ENCODED_LENGTH) forms.push(encoded, encoded.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function walk(value, mask, skip, path) {
  if (typeof value === 'string') return skip(path) ? value : mask(value);
  if (Array.isArray(value)) return value.map((item, index) => walk(item, mask, skip, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [mask(key), walk(item, mask, skip, [...path, key])]));
  }
  return value;
}
