// Moved to @quicklinks/core/parse-input-or-throw. This forwarder stays only while the links
// services being written now still import createValidationError from here; delete it once they
// import from core.
export { createValidationError, parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
