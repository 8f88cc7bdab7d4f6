package runtime

// ValidateArgs exposes validateArgs to the external tests, which need the
// generated messages (and so cannot live in this package).
var ValidateArgs = validateArgs

// LocalTarget reports whether DialGateway treats target as on this machine
// (no gzip offered).
func LocalTarget(target string) bool {
	_, _, local, err := httpClientFor(target)
	return err == nil && local
}
