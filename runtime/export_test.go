package runtime

// ValidateArgs exposes validateArgs to the external tests, which need the
// generated messages (and so cannot live in this package).
var ValidateArgs = validateArgs
