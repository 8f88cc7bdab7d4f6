package charset

// NonBlank is the project's non-blank rule as a buf.validate pattern: at
// least one character that is not Unicode White_Space (U+0009 to U+000D,
// U+0085 and the separators, \p{Z}), so a string of no-break or other
// Unicode spaces is blank. RE2 (the runtime, the gateway, Go clients) and
// ECMA-262 with the u flag (JavaScript clients) read it alike; \S would
// not (RE2's is ASCII-only).
const NonBlank = `[^\t-\r\x85\p{Z}]`

// IsNonBlank reports whether a pattern is a non-blank rule: NonBlank, or
// the ASCII-only \S of tables written before it.
func IsNonBlank(pattern string) bool { return pattern == NonBlank || pattern == `\S` }
