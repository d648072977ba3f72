// Validation of request params. Every failure is a bad_request whose message
// names the param, the value received and what is allowed.

import { badRequest } from './errors.js';

function describe(value) {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

export function tabIdParam(params, name = 'tab_id') {
  const value = params[name];
  if (!Number.isInteger(value) || value < 0) {
    throw badRequest(`Invalid ${name}: ${describe(value)} (allowed: a tab id, an integer >= 0)`);
  }
  return value;
}

export function enumParam(params, name, allowed, fallback) {
  const value = params[name] ?? fallback;
  if (!allowed.includes(value)) {
    throw badRequest(`Invalid ${name}: ${describe(params[name])} (allowed: ${allowed.join(', ')})`);
  }
  return value;
}

export function intParam(params, name, min, max, fallback) {
  const value = params[name] ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`Invalid ${name}: ${describe(params[name])} (allowed: an integer ${min}-${max})`);
  }
  return value;
}

export function numberParam(params, name, min, max, fallback) {
  const value = params[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw badRequest(`Invalid ${name}: ${describe(params[name])} (allowed: a number ${min}-${max})`);
  }
  return value;
}

export function urlParam(params, name) {
  const value = params[name];
  if (typeof value !== 'string' || !isAbsoluteUrl(value)) {
    throw badRequest(`Invalid ${name}: ${describe(value)} (allowed: an absolute URL)`);
  }
  return value;
}

// new URL() rather than URL.canParse: the manifest allows Chrome 116.
function isAbsoluteUrl(text) {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

export function boolParam(params, name, fallback) {
  const value = params[name] ?? fallback;
  if (typeof value !== 'boolean') {
    throw badRequest(`Invalid ${name}: ${describe(params[name])} (allowed: true or false)`);
  }
  return value;
}

// A non-empty string, or null when absent.
export function optionalStringParam(params, name) {
  const value = params[name] ?? null;
  if (value !== null && (typeof value !== 'string' || value === '')) {
    throw badRequest(`Invalid ${name}: ${describe(value)} (allowed: a non-empty string)`);
  }
  return value;
}

// The folders local files may be opened from (the front sends the MCP client's):
// absolute paths, none by default.
export function fileRootsParam(params) {
  const roots = params.file_roots ?? [];
  if (!Array.isArray(roots) || roots.some((root) => typeof root !== 'string' || !root.startsWith('/'))) {
    throw badRequest(`Invalid file_roots: ${describe(roots)} (allowed: a list of absolute paths)`);
  }
  return roots;
}
